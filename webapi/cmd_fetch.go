package webapi

import (
	"fmt"
	"strconv"

	"github.com/gopcp/gopcp/pcp"
)

// fetch answers /pmapi/fetch: values of metrics given by name or PMID.
func (q *request) fetch() {
	var list string
	byName, singular := true, false
	if v, ok := q.param("names"); ok {
		list = v
	} else if v, ok := q.param("name"); ok {
		list, singular = v, true
	} else if v, ok := q.param("pmids"); ok {
		list, byName = v, false
	} else if v, ok := q.param("pmid"); ok {
		list, byName, singular = v, false, true
	}
	names, fine := q.splitList(list)
	if !fine {
		q.failure("", statusInval, "too many names in request")
		return
	}
	c, ok := q.use()
	if !ok {
		return
	}
	defer q.release(c)
	mlist := make([]*metric, len(names))
	pmids := make([]pcp.PMID, len(names))
	for i, n := range names {
		var m *metric
		if byName {
			m = c.lookupMetric(q.ctx, n)
		} else if p, ok := parsePMID(n); ok {
			m = c.lookupPMID(q.ctx, p)
		}
		if m == nil && singular {
			q.failure(c.origin, statusInval, "bad parameters passed")
			return
		}
		mlist[i], pmids[i] = m, pcp.PMIDNull
		if m != nil {
			pmids[i] = m.desc.PMID
		}
	}
	res := getResult()
	defer putResult(res)
	if len(pmids) == 0 {
		q.failure(c.origin, int(pcp.ErrTooSmall), pcp.TextOf(pcp.ErrTooSmall))
		return
	}
	if _, err := c.src.Fetch(q.ctx, pmids, res); err != nil {
		q.failure(c.origin, statusInval, pcp.TextOf(err))
		return
	}
	q.fetchStart(c, res.Timestamp)
	for i, m := range mlist {
		if m != nil && i < len(res.Sets) {
			addValueSet(m, &res.Sets[i])
		}
	}
	for _, m := range mlist {
		if m == nil {
			continue
		}
		for _, name := range m.names {
			q.fetchValueSet(m.desc.PMID, name)
			if m.desc.InDom == pcp.InDomNull {
				q.fetchValue(pcp.InstNull, m.value)
				continue
			}
			ip := m.indom
			if !ip.updated {
				c.indomInstances(q.ctx, ip)
				c.instancesLabels(q.ctx, ip)
			}
			c.indomLabels(ip)
			for _, v := range m.values {
				if !v.updated {
					continue
				}
				if ip.insts.find(v.inst) == nil {
					ip.updated = false
					if c.lookupInstance(q.ctx, ip, v.inst) == nil {
						continue
					}
					c.instancesLabels(q.ctx, ip)
				}
				q.fetchValue(v.inst, v.text)
			}
		}
	}
	q.rep.done(q.w, c.origin, statusOK, nil)
}

// fetchStart writes the answer's head: context, timestamp, values array.
// The fraction is nanoseconds written with its leading zeros, where
// pmproxy 6.0.3 drops them (docs/pmproxy.md).
func (q *request) fetchStart(c *webContext, ts pcp.Timestamp) {
	r := &q.rep
	r.numVSets, r.numInsts = 0, 0
	if !r.compat {
		r.appendHead(c.origin)
		r.buf = fmt.Appendf(r.buf, `,"timestamp":%d.%09d,`, ts.Sec, ts.Nsec)
	} else {
		r.buf = fmt.Appendf(r.buf, `{"timestamp":{"s":%d,"us":%d},`, ts.Sec, ts.Nsec/1000)
	}
	r.suffix = r.suffix.push('}')
	r.buf = append(r.buf, `"values":[`...)
	r.suffix = r.suffix.push(']')
}

// fetchValueSet starts one metric name's values (on_pmwebapi_fetch_values).
func (q *request) fetchValueSet(pmid pcp.PMID, name string) {
	r := &q.rep
	if uint32(pmid) != r.pmid || name != r.name {
		r.name, r.pmid = name, uint32(pmid)
		if r.numVSets > 0 {
			r.buf = append(r.buf, "]},"...)
			r.suffix = r.suffix.pop().pop()
		}
		r.numVSets, r.numInsts = 0, 0
	} else if r.numVSets != 0 {
		r.buf = append(r.buf, ',')
	}
	r.numVSets++
	r.buf = append(r.buf, `{"pmid"`...)
	if r.compat {
		r.buf = append(r.buf, ':')
		r.buf = strconv.AppendUint(r.buf, uint64(pmid), 10)
	} else {
		r.buf = append(r.buf, `:"`...)
		r.buf = append(r.buf, pmid.String()...)
		r.buf = append(r.buf, '"')
	}
	r.suffix = r.suffix.push('}')
	r.buf = append(r.buf, `,"name":"`...)
	r.buf = append(r.buf, name...)
	r.buf = append(r.buf, `","instances":[`...)
	r.suffix = r.suffix.push(']')
}

// fetchValue writes one instance's value.
func (q *request) fetchValue(inst int32, text string) {
	r := &q.rep
	if r.numInsts != 0 {
		r.buf = append(r.buf, ',')
	}
	r.numInsts++
	r.buf = append(r.buf, `{"instance":`...)
	switch {
	case inst != pcp.InstNull:
		r.buf = strconv.AppendUint(r.buf, uint64(uint32(inst)), 10)
	case r.compat:
		r.buf = append(r.buf, "-1"...)
	default:
		r.buf = append(r.buf, "null"...)
	}
	r.buf = append(r.buf, `,"value":`...)
	if text == "" {
		text = "null"
	}
	r.buf = append(r.buf, text...)
	r.buf = append(r.buf, '}')
}

// parsePMID reads a PMID as webgroup_parse_pmid does: 0x hex, dotted
// domain.cluster.item, or one unsigned number.
func parsePMID(s string) (pcp.PMID, bool) {
	if v, ok := scanHex(s); ok {
		return pcp.PMID(uint32(v)), true
	}
	v, n := scanDotted(s, 3)
	switch n {
	case 3:
		return pcp.NewPMID(uint32(v[0]), uint32(v[1]), uint32(v[2])), true
	case 1:
		return pcp.PMID(uint32(v[0])), true
	}
	return pcp.PMIDNull, false
}

// parseInDom reads an instance domain as webgroup_parse_indom does.
func parseInDom(s string) (pcp.InDom, bool) {
	if v, ok := scanHex(s); ok {
		return pcp.InDom(uint32(v)), true
	}
	v, n := scanDotted(s, 2)
	switch n {
	case 2:
		return pcp.NewInDom(uint32(v[0]), uint32(v[1])), true
	case 1:
		return pcp.InDom(uint32(v[0])), true
	}
	return pcp.InDomNull, false
}

func scanHex(s string) (uint64, bool) {
	if len(s) > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		return scanUint(s[2:], 16)
	}
	return 0, false
}

// scanDotted is sscanf's "%u.%u[.%u]": the numbers read and their count.
func scanDotted(s string, max int) ([3]uint64, int) {
	var v [3]uint64
	n := 0
	for n < max {
		i := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == 0 {
			break
		}
		v[n], _ = scanUint(s[:i], 10)
		n++
		s = s[i:]
		if len(s) == 0 || s[0] != '.' {
			break
		}
		s = s[1:]
	}
	return v, n
}

// scanUint reads the leading digits of s as sscanf's %u or %x would.
func scanUint(s string, base int) (uint64, bool) {
	i := 0
	for i < len(s) && isDigit(s[i], base) {
		i++
	}
	if i == 0 {
		return 0, false
	}
	v, err := strconv.ParseUint(s[:i], base, 64)
	if err != nil {
		return 0xffffffff, true
	}
	return v, true
}

func isDigit(c byte, base int) bool {
	if c >= '0' && c <= '9' {
		return true
	}
	return base == 16 && (c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F')
}
