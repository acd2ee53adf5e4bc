package proc

import (
	"context"
	"strings"
	"sync"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmda"
)

// PCP's namespace leaves most of proc.* to the agent (dynamic subtrees
// "psinfo PROC:*:*"), which answers names in its own table's order; the
// agent answers from pcpDescs, which keeps PCP's order, so that tools
// list the metrics as they do against PCP's agent.

// nsIndex is the names by PMID (cluster and item) and the PMIDs by name.
type nsIndex struct {
	byName map[string]uint32 // cluster<<10 | item
	byID   map[uint32]string
}

var names = sync.OnceValue(func() *nsIndex {
	x := &nsIndex{byName: make(map[string]uint32, len(pcpDescs)), byID: make(map[uint32]string, len(pcpDescs))}
	for i := range pcpDescs {
		d := &pcpDescs[i]
		k := d.cluster<<10 | d.item
		x.byName[d.name] = k
		x.byID[k] = d.name
	}
	return x
})

// LookupName is the PMID of a metric name.
func (p *Proc) LookupName(_ context.Context, _ pmda.Client, name string) (pcp.PMID, error) {
	k, ok := names().byName[name]
	if !ok {
		return pcp.PMIDNull, pcp.ErrName
	}
	return pcp.NewPMID(p.domain, k>>10, k&1023), nil
}

// Names is the one name of pmid.
func (p *Proc) Names(_ context.Context, _ pmda.Client, pmid pcp.PMID) ([]string, error) {
	n, ok := names().byID[pmid.Cluster()<<10|pmid.Item()]
	if !ok || pmid.Domain() != p.domain {
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
	for i := range pcpDescs {
		rest, ok := strings.CutPrefix(pcpDescs[i].name, prefix)
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
	for i := range pcpDescs {
		n := pcpDescs[i].name
		if name == "" || n == name || strings.HasPrefix(n, name+".") {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return nil, pcp.ErrName
	}
	return out, nil
}
