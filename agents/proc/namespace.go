package proc

import (
	"context"
	"strings"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmda"
)

// PCP's namespace leaves most of proc.* to the agent (dynamic subtrees
// "psinfo PROC:*:*"), which answers names in its own table's order; the
// agent answers from its tables, whose order is PCP's (pcpDescs keeps
// it), so that tools list the metrics as they do against PCP's agent.

// namespace is every name the agent serves, in PCP's order: cgroup.*,
// proc.*, hotproc.*, acct.* (root_proc's), each part in its table's.
type namespace struct {
	order  []string
	byName map[string]pcp.PMID
	byID   map[pcp.PMID]string
}

// build makes the namespace of an agent of domain.
func (n *namespace) build(domain uint32, cg, ac []pmda.Metric) {
	n.byName = map[string]pcp.PMID{}
	n.byID = map[pcp.PMID]string{}
	add := func(name string, cluster, item uint32) {
		id := pcp.NewPMID(domain, cluster, item)
		n.order = append(n.order, name)
		n.byName[name] = id
		n.byID[id] = name
	}
	for _, m := range cg {
		add(m.Name, m.Desc.PMID.Cluster(), m.Desc.PMID.Item())
	}
	for i := range pcpDescs {
		add(pcpDescs[i].Name, pcpDescs[i].Cluster, pcpDescs[i].Item)
	}
	for _, m := range ac {
		add(m.Name, m.Desc.PMID.Cluster(), m.Desc.PMID.Item())
	}
}

// LookupName is the PMID of a metric name.
func (p *Proc) LookupName(_ context.Context, _ pmda.Client, name string) (pcp.PMID, error) {
	id, ok := p.ns.byName[name]
	if !ok {
		return pcp.PMIDNull, pcp.ErrName
	}
	return id, nil
}

// Names is the one name of pmid.
func (p *Proc) Names(_ context.Context, _ pmda.Client, pmid pcp.PMID) ([]string, error) {
	n, ok := p.ns.byID[pmid]
	if !ok {
		return nil, pcp.ErrPMID
	}
	return []string{n}, nil
}

// Children lists the names one level below name, in PCP's order.
func (p *Proc) Children(_ context.Context, _ pmda.Client, name string) ([]string, []int32, error) {
	prefix := name + "."
	if name == "" {
		prefix = ""
	}
	var kids []string
	var status []int32
	seen := map[string]bool{}
	for _, n := range p.ns.order {
		rest, ok := strings.CutPrefix(n, prefix)
		if !ok {
			continue
		}
		kid, _, deeper := strings.Cut(rest, ".")
		if seen[kid] {
			continue
		}
		seen[kid] = true
		kids = append(kids, kid)
		st := int32(pdu.PMNSLeafStatus)
		if deeper {
			st = pdu.PMNSNonLeafStatus
		}
		status = append(status, st)
	}
	if len(kids) == 0 {
		return nil, nil, pcp.ErrName
	}
	return kids, status, nil
}

// Traverse lists every metric at or below name, in PCP's order.
func (p *Proc) Traverse(_ context.Context, _ pmda.Client, name string) ([]string, error) {
	var out []string
	for _, n := range p.ns.order {
		if name == "" || n == name || strings.HasPrefix(n, name+".") {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return nil, pcp.ErrName
	}
	return out, nil
}
