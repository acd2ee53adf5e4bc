package webapi

import (
	"strconv"
	"strings"

	"github.com/gopcp/gopcp/internal/webid"
	"github.com/gopcp/gopcp/pcp"
)

// scrapeBatch is how many names pmproxy fetches at once while scraping.
const scrapeBatch = 256

// scrape answers /metrics and /pmapi/metrics: the values of every metric
// below the names given (the whole namespace for none) in OpenMetrics
// text, each metric headed by a "# PCP5" line with its PCP metadata, and
// a timestamp in milliseconds on each sample with times=true.
func (q *request) scrape() {
	q.rep.text = true
	times, _ := q.param("times")
	q.rep.times = times == "true"
	list, ok := q.param("names")
	if !ok {
		if list, ok = q.param("name"); !ok {
			if list, ok = q.param("prefix"); !ok {
				list, _ = q.param("target")
			}
		}
	}
	prefixes, fine := q.splitList(list)
	if !fine {
		q.failure("", statusInval, "too many names in request")
		return
	}
	if len(prefixes) == 0 {
		prefixes = []string{""}
	}
	c, ok := q.use()
	if !ok {
		return
	}
	defer q.release(c)
	status, msg := statusOK, ""
	for _, prefix := range prefixes {
		names, err := c.src.Traverse(q.ctx, prefix)
		if err != nil {
			status, msg = statusInval, "'"+prefix+"' - "+pcp.TextOf(err)
			continue
		}
		status = statusOK
		for len(names) > 0 {
			n := min(len(names), scrapeBatch)
			if err := q.scrapeNames(c, names[:n]); err != nil {
				status, msg = statusInval, pcp.TextOf(err)
			}
			names = names[n:]
		}
	}
	if status != statusOK {
		q.rep.done(q.w, c.origin, status, &msg)
		return
	}
	q.rep.done(q.w, c.origin, statusOK, nil)
}

func (q *request) scrapeNames(c *webContext, names []string) error {
	c.touch(q.s.now())
	mlist := make([]*metric, len(names))
	pmids := make([]pcp.PMID, len(names))
	for i, n := range names {
		mlist[i] = c.lookupMetric(q.ctx, n)
		pmids[i] = pcp.PMIDNull
		if mlist[i] != nil {
			pmids[i] = mlist[i].desc.PMID
		}
	}
	res := getResult()
	defer putResult(res)
	if _, err := c.src.Fetch(q.ctx, pmids, res); err != nil {
		return err
	}
	for i, m := range mlist {
		if m != nil && i < len(res.Sets) {
			addValueSet(m, &res.Sets[i])
		}
	}
	for _, m := range mlist {
		if m == nil || !m.updated {
			continue
		}
		c.itemLabels(q.ctx, m)
		c.metricHelp(q.ctx, m)
		ip := m.indom
		if ip != nil && !ip.updated && c.indomInstances(q.ctx, ip) > 0 {
			c.instancesLabels(q.ctx, ip)
		}
		if !numericType(m.desc.Type) {
			continue
		}
		for _, name := range m.names {
			q.scrapeHeader(m, name)
			if m.desc.InDom == pcp.InDomNull || len(m.values) == 0 {
				q.scrapeSample(name, scrapeLabels(c, m, nil), m.value, res.Timestamp)
				continue
			}
			for _, v := range m.values {
				if !v.updated || ip == nil {
					continue
				}
				in := ip.insts.find(v.inst)
				if in == nil {
					continue
				}
				q.scrapeSample(name, scrapeLabels(c, m, in), v.text, res.Timestamp)
			}
		}
	}
	return nil
}

func numericType(t pcp.Type) bool {
	switch t {
	case pcp.Type32, pcp.TypeU32, pcp.Type64, pcp.TypeU64, pcp.TypeFloat, pcp.TypeDouble:
		return true
	}
	return false
}

// scrapeHeader writes the metric's # PCP5, # HELP and # TYPE lines when
// the metric (PMID and name) is not the one last written.
func (q *request) scrapeHeader(m *metric, name string) {
	r := &q.rep
	if uint32(m.desc.PMID) == r.pmid && name == r.name {
		return
	}
	r.pmid, r.name = uint32(m.desc.PMID), name
	om := openMetricsName(name, r.compat)
	if !r.compat {
		r.buf = append(r.buf, "# PCP5 "+name+" "+m.desc.PMID.String()+" "+webid.TypeName(m.desc.Type)+" "+
			m.desc.InDom.String()+" "+m.desc.Sem.String()+" "+webid.UnitsName(m.desc.Units)+"\n"...)
	} else {
		r.buf = append(r.buf, "# PCP "+name+" "+m.desc.Sem.String()+" "+webid.UnitsName(m.desc.Units)+"\n"...)
	}
	if m.oneline != nil {
		r.buf = append(r.buf, "# HELP "+om+" "+*m.oneline+"\n"...)
	}
	kind := "counter"
	if m.desc.Sem == pcp.SemInstant || m.desc.Sem == pcp.SemDiscrete {
		kind = "gauge"
	}
	r.buf = append(r.buf, "# TYPE "+om+" "+kind+"\n"...)
}

// scrapeSample writes one sample line. The timestamp is milliseconds since
// the epoch; pmproxy 6.0.3 adds microseconds to the milliseconds instead.
func (q *request) scrapeSample(name, labels, val string, ts pcp.Timestamp) {
	r := &q.rep
	r.buf = append(r.buf, openMetricsName(name, r.compat)...)
	if labels != "" {
		r.buf = append(r.buf, '{')
		r.buf = append(r.buf, labels...)
		r.buf = append(r.buf, '}')
	}
	r.buf = append(r.buf, ' ')
	r.buf = append(r.buf, val...)
	if r.times {
		r.buf = append(r.buf, ' ')
		r.buf = strconv.AppendInt(r.buf, ts.Sec*1000+int64(ts.Nsec)/1000000, 10)
	}
	r.buf = append(r.buf, '\n')
}

func openMetricsName(name string, compat bool) string {
	if compat {
		return strings.ReplaceAll(name, ".", ":")
	}
	return strings.ReplaceAll(name, ".", "_")
}

// scrapeLabels merges the label sets loaded for a sample, every level from
// the context down to the instance (optional labels too), a lower level's
// value replacing a higher's, and adds instname and instid unless the
// instance's labels have them, in the order pmproxy's dictionary of them
// gives (open_metrics_labels).
func scrapeLabels(c *webContext, m *metric, in *instance) string {
	sets := []*pcp.LabelSet{c.labelset, m.cluster.domain.labelset}
	if m.indom != nil {
		sets = append(sets, m.indom.labelset)
	}
	sets = append(sets, m.cluster.labelset, m.labelset)
	if in != nil {
		sets = append(sets, in.labelset)
	}
	d := newRDict[string, string](hashString)
	put := func(k, v string) {
		if e, ok := d.find(k); ok {
			e.val = v
		} else {
			d.add(k, v)
		}
	}
	for _, s := range sets {
		if s == nil {
			continue
		}
		for i := range s.Labels {
			v := s.LabelValue(i)
			if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
				v = v[1 : len(v)-1]
			}
			put(s.LabelName(i), string(webid.AppendRepr(nil, v)))
		}
	}
	if in != nil {
		if _, ok := d.find("instname"); !ok {
			d.add("instname", string(webid.AppendRepr(nil, in.name)))
		}
		if _, ok := d.find("instid"); !ok {
			d.add("instid", "\""+strconv.FormatUint(uint64(uint32(in.inst)), 10)+"\"")
		}
	}
	var b strings.Builder
	d.scan(func(e *rentry[string, string]) {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(e.key + "=" + e.val)
	})
	return b.String()
}
