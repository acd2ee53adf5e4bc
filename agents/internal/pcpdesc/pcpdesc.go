// Package pcpdesc is the row of the descriptor tables that
// agents/internal/gendesc writes from PCP's own agents (pcpdesc_table.go
// in agents/linux, agents/proc, agents/proc/acct and agents/proc/cgroup):
// one metric's name and descriptor, kept small and free of the domain so
// that one table serves an agent in any domain.
//
// The tables are unkeyed literals of each package's own
// `type pcpDesc pcpdesc.Row` (a type of the package, so that go vet takes
// the unkeyed rows as local); the field order below is the order gendesc
// writes them in.
package pcpdesc

import "github.com/gopcp/gopcp/pcp"

// Row is one metric as PCP's agent describes it.
type Row struct {
	Name          string
	Cluster, Item uint32
	Type          pcp.Type
	InDom         int32 // the instance domain's serial; -1 for none
	Sem           pcp.Sem
	Units         uint32 // packed, as pcp.Units.Pack packs them
}

// PMID is the row's metric in domain.
func (r *Row) PMID(domain uint32) pcp.PMID { return pcp.NewPMID(domain, r.Cluster, r.Item) }

// Desc is the row's descriptor in domain.
func (r *Row) Desc(domain uint32) pcp.Desc {
	in := pcp.InDomNull
	if r.InDom >= 0 {
		in = pcp.NewInDom(domain, uint32(r.InDom))
	}
	return pcp.Desc{PMID: r.PMID(domain), Type: r.Type, InDom: in, Sem: r.Sem, Units: pcp.UnpackUnits(r.Units)}
}
