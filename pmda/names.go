package pmda

import (
	"context"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// The namespace methods serve an agent's own names to pmcd, for a
// namespace whose entry for the agent is dynamic ("name DOMAIN:*:*").
// They answer from the Name fields of the metric table; an agent without
// names answers as libpcp_pmda does by default: pcp.ErrName, or
// pcp.ErrPMID for a PMID.

// LookupName returns the PMID of a full metric name.
func (a *Agent) LookupName(ctx context.Context, c Client, name string) (pcp.PMID, error) {
	if n, ok := a.fetcher.(Namer); ok {
		return n.LookupName(ctx, c, name)
	}
	tree := a.namesTree()
	if tree == nil {
		return pcp.PMIDNull, pcp.ErrName
	}
	id, err := tree.Lookup(name)
	if err != nil {
		return pcp.PMIDNull, pcp.CodeOf(err, pcp.ErrName)
	}
	return id, nil
}

// Names returns every name of pmid.
func (a *Agent) Names(ctx context.Context, c Client, pmid pcp.PMID) ([]string, error) {
	if n, ok := a.fetcher.(Namer); ok {
		return n.Names(ctx, c, pmid)
	}
	tree := a.namesTree()
	if tree == nil {
		return nil, pcp.ErrPMID
	}
	names, err := tree.NameAll(pmid)
	if err != nil {
		return nil, pcp.CodeOf(err, pcp.ErrPMID)
	}
	return names, nil
}

// Children lists the names one level below name, each with its status
// (pdu.PMNSLeafStatus or pdu.PMNSNonLeafStatus).
func (a *Agent) Children(ctx context.Context, c Client, name string) (names []string, status []int32, err error) {
	if n, ok := a.fetcher.(Namer); ok {
		return n.Children(ctx, c, name)
	}
	tree := a.namesTree()
	if tree == nil {
		return nil, nil, pcp.ErrName
	}
	kids, err := tree.Children(name)
	if err != nil {
		return nil, nil, pcp.CodeOf(err, pcp.ErrName)
	}
	for _, k := range kids {
		names = append(names, k.Name)
		st := int32(pdu.PMNSNonLeafStatus)
		if k.Leaf {
			st = pdu.PMNSLeafStatus
		}
		status = append(status, st)
	}
	return names, status, nil
}

// Traverse lists the full names of every metric at or below name.
func (a *Agent) Traverse(ctx context.Context, c Client, name string) ([]string, error) {
	if n, ok := a.fetcher.(Namer); ok {
		return n.Traverse(ctx, c, name)
	}
	tree := a.namesTree()
	if tree == nil {
		return nil, pcp.ErrName
	}
	names, err := tree.Traverse(name)
	if err != nil {
		return nil, pcp.CodeOf(err, pcp.ErrName)
	}
	return names, nil
}
