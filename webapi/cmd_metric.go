package webapi

import (
	"strconv"

	"github.com/gopcp/gopcp/internal/webid"
	"github.com/gopcp/gopcp/pcp"
)

// metric answers /pmapi/metric: the metadata of every metric below each
// name or prefix (the whole namespace for none).
func (q *request) metric() {
	var names []string
	list, ok := q.param("prefix")
	if !ok {
		if list, ok = q.param("names"); !ok {
			list, ok = q.param("name")
		}
	}
	if ok {
		var fine bool
		if names, fine = q.splitList(list); !fine {
			q.failure("", statusInval, "too many names in request")
			return
		}
	}
	c, ok := q.use()
	if !ok {
		return
	}
	defer q.release(c)
	status, msg := statusOK, (*string)(nil)
	if list == "" {
		found, err := c.src.Traverse(q.ctx, "")
		if err != nil {
			m := "namespace traversal failed - " + pcp.TextOf(err)
			q.rep.done(q.w, c.origin, statusInval, &m)
			return
		}
		for _, n := range found {
			q.metricOne(c, n)
		}
	}
	for _, name := range names {
		found, err := c.src.Traverse(q.ctx, name)
		if err != nil {
			if len(names) != 1 {
				q.badName(c, name, pcp.TextOf(err))
				continue
			}
			m := name + " traversal failed - " + pcp.TextOf(err)
			status, msg = statusInval, &m
			break
		}
		for _, n := range found {
			q.metricOne(c, n)
		}
	}
	q.rep.done(q.w, c.origin, status, msg)
}

// metricStart writes what comes before a metric of the list.
func (q *request) metricStart(c *webContext) {
	r := &q.rep
	if r.numVSets == 0 {
		r.suffix = r.suffix.push('}').push(']')
		r.appendHead(c.origin)
		r.buf = append(r.buf, `,"metrics":[`...)
	} else {
		r.buf = append(r.buf, ',')
	}
	r.numVSets++
}

// badName reports a name that cannot be looked up, inside the list.
func (q *request) badName(c *webContext, name, why string) {
	q.metricStart(c)
	r := &q.rep
	r.buf = append(r.buf, `{"name":`...)
	r.buf = webid.AppendRepr(r.buf, name)
	r.buf = append(r.buf, `,"message":"`...)
	r.buf = append(r.buf, why...)
	r.buf = append(r.buf, `","success":false}`...)
}

// metricOne writes one metric's metadata, loading the labels and help
// text it needs as webmetric_lookup does.
func (q *request) metricOne(c *webContext, name string) {
	c.touch(q.s.now())
	m := c.lookupMetric(q.ctx, name)
	if m == nil {
		q.badName(c, name, "failed to lookup metric name")
		return
	}
	seriesName := m.names[0]
	for _, n := range m.names {
		if n == name {
			seriesName = n
			break
		}
	}
	c.domainLabels(q.ctx, m.cluster.domain)
	c.clusterLabels(q.ctx, m.cluster)
	if ip := m.indom; ip != nil {
		if c.indomInstances(q.ctx, ip) > 0 {
			c.instancesLabels(q.ctx, ip)
		}
		c.indomLabels(ip)
	}
	c.itemLabels(q.ctx, m)
	c.metricHelp(q.ctx, m)
	q.metricStart(c)
	r := &q.rep
	r.buf = append(r.buf, `{"name":"`...)
	r.buf = append(r.buf, name...)
	r.buf = append(r.buf, `","series":"`...)
	r.buf = append(r.buf, c.series(m, seriesName)...)
	r.buf = append(r.buf, '"')
	r.appendPMID(m.desc.PMID)
	if m.desc.InDom != pcp.InDomNull {
		r.appendInDom(m.desc.InDom)
	}
	r.buf = append(r.buf, `,"type":"`...)
	r.buf = append(r.buf, webid.TypeName(m.desc.Type)...)
	r.buf = append(r.buf, `","sem":"`...)
	r.buf = append(r.buf, m.desc.Sem.String()...)
	r.buf = append(r.buf, `","units":"`...)
	r.buf = append(r.buf, webid.UnitsName(m.desc.Units)...)
	r.buf = append(r.buf, `","labels":`...)
	r.buf = append(r.buf, c.metricLabels(m)...)
	r.appendText(m.oneline, m.help, true)
	r.buf = append(r.buf, '}')
}

// appendText writes text-oneline and text-help, the latter falling back to
// the former; always says whether they appear even when empty (a metric's
// answer always has them).
func (r *reply) appendText(oneline, help *string, always bool) {
	one := oneline
	if one == nil && always {
		empty := ""
		one = &empty
	}
	if one != nil {
		r.buf = append(r.buf, `,"text-oneline":`...)
		r.buf = webid.AppendUnicode(r.buf, *one)
	}
	h := one
	if help != nil && *help != "" {
		h = help
	}
	if h != nil {
		r.buf = append(r.buf, `,"text-help":`...)
		r.buf = webid.AppendUnicode(r.buf, *h)
	}
}

func (r *reply) appendPMID(p pcp.PMID) {
	if r.compat {
		r.buf = append(r.buf, `,"pmid":`...)
		r.buf = strconv.AppendUint(r.buf, uint64(p), 10)
		return
	}
	r.buf = append(r.buf, `,"pmid":"`...)
	r.buf = append(r.buf, p.String()...)
	r.buf = append(r.buf, '"')
}

func (r *reply) appendInDom(i pcp.InDom) {
	if r.compat {
		r.buf = append(r.buf, `,"indom":`...)
		r.buf = strconv.AppendUint(r.buf, uint64(i), 10)
		return
	}
	r.buf = append(r.buf, `,"indom":"`...)
	r.buf = append(r.buf, i.String()...)
	r.buf = append(r.buf, '"')
}
