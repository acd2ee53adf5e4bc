package webapi

import (
	"path"
	"regexp"
	"strconv"

	"github.com/gopcp/gopcp/internal/webid"
	"github.com/gopcp/gopcp/pcp"
)

// matcher is the instance name filter of indom, profile and store: exact
// (the default), glob or regex.
type matcher struct {
	kind  string
	names []string
	ids   []string
	re    []*regexp.Regexp
}

func (m *matcher) match(in *instance) bool {
	if len(m.names) == 0 && len(m.ids) == 0 {
		return true
	}
	for i, n := range m.names {
		switch m.kind {
		case "regex":
			if i < len(m.re) && m.re[i] != nil && m.re[i].MatchString(in.name) {
				return true
			}
		case "glob":
			if ok, _ := path.Match(n, in.name); ok {
				return true
			}
		default:
			if n == in.name {
				return true
			}
		}
	}
	for _, id := range m.ids {
		if int32(atoi(id)) == in.inst {
			return true
		}
	}
	return false
}

// atoi is C's atoi: leading space, a sign, digits, anything after ignored.
func atoi(s string) int64 {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		neg = s[i] == '-'
		i++
	}
	var v int64
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		v = v*10 + int64(s[i]-'0')
		if v > 1<<40 {
			break
		}
	}
	if neg {
		v = -v
	}
	return v
}

// matchKind checks the match parameter; ok is false with the message
// pmproxy gives for a bad one.
func (q *request) matchKind() (string, string, bool) {
	v, ok := q.param("match")
	if !ok {
		return "exact", "", true
	}
	switch v {
	case "regex", "glob", "exact":
		return v, "", true
	}
	return "", v + " - invalid 'match' parameter value", false
}

// instanceFilter reads iname (or, without it, instance) into a matcher.
func (q *request) instanceFilter(kind string) (*matcher, bool) {
	m := &matcher{kind: kind}
	var ok bool
	if v, has := q.param("iname"); has {
		if m.names, ok = q.splitList(v); !ok {
			return nil, false
		}
		if kind == "regex" {
			for _, n := range m.names {
				re, err := regexp.CompilePOSIX(n)
				if err != nil {
					// pmproxy drops every pattern when one fails to compile.
					m.re = nil
					break
				}
				m.re = append(m.re, re)
			}
		}
	} else if v, has := q.param("instance"); has {
		if m.ids, ok = q.splitList(v); !ok {
			return nil, false
		}
	}
	return m, true
}

// instancesContext opens a request that names instances (iname or
// instance): its filter, with the match parameter's kind when matched
// (else exact), and its context, to be released; false once the failure
// is answered.
func (q *request) instancesContext(matched bool) (*matcher, *webContext, bool) {
	kind := "exact"
	if matched {
		k, bad, ok := q.matchKind()
		if !ok {
			q.failure(q.ctxid, statusInval, bad)
			return nil, nil, false
		}
		kind = k
	}
	filter, ok := q.instanceFilter(kind)
	if !ok {
		q.failure(q.ctxid, statusInval, "too many names in request")
		return nil, nil, false
	}
	c, ok := q.use()
	if !ok {
		return nil, nil, false
	}
	return filter, c, true
}

// metricInDom is the instance domain of the metric called name; false
// once the failure is answered (no such metric, or one with none).
func (q *request) metricInDom(c *webContext, name string) (pcp.InDom, bool) {
	m := c.lookupMetric(q.ctx, name)
	if m == nil {
		q.failure(c.origin, statusInval, name+" - failed to lookup metric")
		return pcp.InDomNull, false
	}
	if m.desc.InDom == pcp.InDomNull {
		q.failure(c.origin, statusInval, name+" - metric has null indom")
		return pcp.InDomNull, false
	}
	return m.desc.InDom, true
}

// indom answers /pmapi/indom: an instance domain's labels, help and
// instances, by metric name or instance domain identifier.
func (q *request) indom() {
	filter, c, ok := q.instancesContext(true)
	if !ok {
		return
	}
	defer q.release(c)
	var id pcp.InDom
	if name, has := q.param("name"); has {
		if id, ok = q.metricInDom(c, name); !ok {
			return
		}
	} else if v, has := q.param("indom"); has {
		parsed, ok := parseInDom(v)
		if !ok || parsed == pcp.InDomNull {
			q.failure(c.origin, statusInval, "failed to lookup indom "+v)
			return
		}
		id = parsed
	} else {
		q.failure(c.origin, statusInval, "bad indom parameters")
		return
	}
	ip := c.addInDom(c.addDomain(id.Domain()), id)
	c.indomInstances(q.ctx, ip)
	c.instancesLabels(q.ctx, ip)
	c.indomLabels(ip)
	c.indomHelp(q.ctx, ip)

	r := &q.rep
	if uint32(ip.id) != r.indom {
		r.indom, r.numInDom, r.numInsts = uint32(ip.id), 0, 0
	}
	if r.numInDom != 0 {
		r.buf = append(r.buf, ',')
	}
	r.numInDom++
	r.suffix = r.suffix.push('}')
	if !r.compat {
		r.appendHead(c.origin)
		r.buf = append(r.buf, `,"indom":"`...)
		r.buf = append(r.buf, ip.id.String()...)
		r.buf = append(r.buf, '"')
	} else {
		r.buf = append(r.buf, `{"indom":`...)
		r.buf = strconv.AppendUint(r.buf, uint64(ip.id), 10)
	}
	r.buf = append(r.buf, `,"labels":`...)
	r.buf = appendLabels(r.buf, ip.labels)
	r.appendText(ip.oneline, ip.help, false)
	r.buf = append(r.buf, `,"instances":[`...)
	r.suffix = r.suffix.push(']')
	ip.insts.each(func(in *instance) {
		if !in.updated || !filter.match(in) {
			return
		}
		if r.numInsts != 0 {
			r.buf = append(r.buf, ',')
		}
		r.numInsts++
		r.buf = append(r.buf, `{"instance":`...)
		r.buf = strconv.AppendUint(r.buf, uint64(uint32(in.inst)), 10)
		r.buf = append(r.buf, `,"name":`...)
		r.buf = webid.AppendUnicode(r.buf, in.name)
		r.buf = append(r.buf, `,"labels":`...)
		r.buf = appendLabels(r.buf, in.labels)
		r.buf = append(r.buf, '}')
	})
	r.done(q.w, c.origin, statusOK, nil)
}

func appendLabels(dst []byte, labels string) []byte {
	if labels == "" {
		return append(dst, "{}"...)
	}
	return append(dst, labels...)
}
