package webapi

import (
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// store answers /pmapi/store: a new value for a metric, or for named or
// numbered instances of it (which also become the context's profile for
// its instance domain, as in pmproxy).
func (q *request) store() {
	name, byName := q.param("name")
	pmidText, byPMID := q.param("pmid")
	val, _ := q.param("value")
	filter, c, ok := q.instancesContext(false)
	if !ok {
		return
	}
	defer q.release(c)
	var m *metric
	switch {
	case byName:
		if m = c.lookupMetric(q.ctx, name); m == nil {
			q.failure(c.origin, statusInval, name+" - failed to lookup metric")
			return
		}
	case byPMID:
		if p, ok := parsePMID(pmidText); ok {
			m = c.lookupPMID(q.ctx, p)
		}
		if m == nil {
			q.failure(c.origin, statusInval, pmidText+" - failed to lookup PMID")
			return
		}
		name = pmidText
	default:
		q.failure(c.origin, statusInval, "bad parameters passed")
		return
	}
	if err := q.storeValue(c, m, filter, val); err != nil {
		q.failure(c.origin, statusInval, "failed to store value to metric "+name+": "+pcp.TextOf(err))
		return
	}
	q.rep.done(q.w, c.origin, statusOK, nil)
}

// storeValue builds and sends the store as webgroup_store does.
func (q *request) storeValue(c *webContext, m *metric, filter *matcher, text string) error {
	atom, err := pmapi.StringValue(text, m.desc.Type)
	if err != nil {
		return err
	}
	ip := m.indom
	if ip != nil && !ip.updated {
		c.indomInstances(q.ctx, ip)
	}
	var insts []int32
	switch {
	case m.desc.InDom == pcp.InDomNull || ip == nil:
		insts = []int32{pcp.InstNull}
	case len(filter.ids) > 0:
		for _, id := range filter.ids {
			insts = append(insts, int32(atoi(id)))
		}
	case len(filter.names) > 0:
		ip.insts.each(func(in *instance) {
			if filter.match(in) && len(insts) < len(filter.names) {
				insts = append(insts, in.inst)
			}
		})
	default:
		insts = []int32{pcp.InstNull}
	}
	vs := pcp.ValueSet{PMID: m.desc.PMID, NumVal: int32(len(insts))}
	for _, inst := range insts {
		v, fmtv, err := pmapi.StuffValue(atom, m.desc.Type, inst)
		if err != nil {
			return err
		}
		vs.ValFmt = fmtv
		vs.Values = append(vs.Values, v)
	}
	if ip != nil && m.desc.InDom != pcp.InDomNull && (len(filter.ids) > 0 || len(filter.names) > 0) {
		_ = c.src.DelProfile(ip.id, nil)
		_ = c.src.AddProfile(ip.id, insts)
	}
	return c.src.Store(q.ctx, &pcp.Result{Sets: []pcp.ValueSet{vs}})
}
