package webapi

import (
	"github.com/gopcp/gopcp/pcp"
)

// profile answers /pmapi/profile: instances added to (expr=add) or removed
// from (expr=del) the context's profile, by metric or instance domain,
// named or numbered, or every instance domain when none is named.
func (q *request) profile() {
	expr, _ := q.param("expr")
	add := expr == "add"
	if !add && expr != "del" {
		q.failure(q.ctxid, statusInval, expr+" - invalid 'expr' parameter value")
		return
	}
	filter, c, ok := q.instancesContext(true)
	if !ok {
		return
	}
	defer q.release(c)
	var ip *indom
	if name, has := q.param("name"); has {
		id, ok := q.metricInDom(c, name)
		if !ok {
			return
		}
		ip = c.addInDom(c.addDomain(id.Domain()), id)
	} else if v, has := q.param("indom"); has {
		id, ok := parseInDom(v)
		if !ok || id == pcp.InDomNull {
			q.failure(c.origin, statusInval, "invalid profile parameters")
			return
		}
		ip = c.addInDom(c.addDomain(id.Domain()), id)
	}
	id := pcp.InDomNull
	var insts []int32
	if ip != nil {
		id = ip.id
		if filter.names != nil || filter.ids != nil {
			c.indomInstances(q.ctx, ip)
			insts = []int32{}
			ip.insts.each(func(in *instance) {
				if in.updated && filter.match(in) {
					insts = append(insts, in.inst)
				}
			})
		}
	}
	var err error
	if add {
		err = c.src.AddProfile(id, insts)
	} else {
		err = c.src.DelProfile(id, insts)
	}
	if err != nil {
		q.failure(c.origin, statusInval, expr+" - "+pcp.TextOf(err))
		return
	}
	q.rep.done(q.w, c.origin, statusOK, nil)
}
