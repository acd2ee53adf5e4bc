package pmapi

import (
	"context"
	"fmt"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmns"
)

// maxNamesPDU bounds the PMNS_NAMES PDUs LookupNames sends, below pmcd's
// 64 KiB limit on what a client sends, as libpcp splits long lists.
const maxNamesPDU = 63 * 1024

// LookupName returns the PMID of one metric name, as pmLookupName with one
// name does: an unknown name is pcp.ErrName, a name inside the namespace
// that is not a metric pcp.ErrNonLeaf.
func (c *HostContext) LookupName(ctx context.Context, name string) (pcp.PMID, error) {
	pmids, err := c.lookupNames(ctx, []string{name})
	if err != nil {
		return pcp.PMIDNull, fmt.Errorf("pmapi: LookupName %q: %w", name, err)
	}
	return pmids[0], nil
}

// LookupNames returns the PMIDs of metric names, as pmLookupName does:
// names that fail get pcp.PMIDNull without making the call fail, so the
// error is only for the request as a whole (or, with a single name, for
// that name as in LookupName). The count of names found is the number of
// PMIDs other than pcp.PMIDNull.
func (c *HostContext) LookupNames(ctx context.Context, names []string) ([]pcp.PMID, error) {
	pmids, err := c.lookupNames(ctx, names)
	if err != nil {
		return pmids, fmt.Errorf("pmapi: LookupNames: %w", err)
	}
	return pmids, nil
}

func (c *HostContext) lookupNames(ctx context.Context, names []string) ([]pcp.PMID, error) {
	if len(names) == 0 {
		return nil, pcp.ErrTooSmall
	}
	pmids := make([]pcp.PMID, len(names))
	for i := range pmids {
		pmids[i] = pcp.PMIDNull
	}
	if c.opts.ns != nil {
		return c.lookupLocal(names, pmids)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	found := 0
	for base := 0; base < len(names); {
		n := namesBatch(names[base:])
		var reply pdu.PMNSIDs
		if err := c.call(ctx, &pdu.PMNSNames{Names: names[base : base+n]}, &reply); err != nil {
			return pmids, err
		}
		if len(reply.PMIDs) != n {
			c.broken()
			return pmids, fmt.Errorf("%w: %d PMIDs for %d names", pcp.ErrIPC, len(reply.PMIDs), n)
		}
		copy(pmids[base:], reply.PMIDs)
		found += int(reply.Status)
		base += n
	}
	if found == 0 && len(names) == 1 {
		return pmids, pcp.ErrName
	}
	return pmids, nil
}

// namesBatch is how many of names go in the next PMNS_NAMES PDU: all of
// fewer than 500, else as many as fit in maxNamesPDU.
func namesBatch(names []string) int {
	if len(names) < 500 {
		return len(names)
	}
	size := pdu.HeaderSize + 12
	for i, name := range names {
		size += 4 + (len(name)+3)&^3
		if size > maxNamesPDU {
			return max(i, 1)
		}
	}
	return len(names)
}

func (c *HostContext) lookupLocal(names []string, pmids []pcp.PMID) ([]pcp.PMID, error) {
	for i, name := range names {
		pmid, err := c.opts.ns.Lookup(name)
		if err != nil {
			if len(names) == 1 {
				return pmids, err
			}
			continue
		}
		pmids[i] = pmid
	}
	return pmids, nil
}

// NameID returns a name of a PMID, as pmNameID does; a PMID without a
// name is pcp.ErrPMID.
func (c *HostContext) NameID(ctx context.Context, pmid pcp.PMID) (string, error) {
	if c.opts.ns != nil {
		name, err := c.opts.ns.NameID(pmid)
		if err != nil {
			return "", fmt.Errorf("pmapi: NameID %s: %w", pmid, err)
		}
		return name, nil
	}
	names, err := c.namesOf(ctx, pmid)
	if err != nil {
		return "", fmt.Errorf("pmapi: NameID %s: %w", pmid, err)
	}
	if len(names) == 0 {
		return "", fmt.Errorf("pmapi: NameID %s: %w", pmid, pcp.ErrPMID)
	}
	return names[0], nil
}

// NameAll returns every name of a PMID, as pmNameAll does.
func (c *HostContext) NameAll(ctx context.Context, pmid pcp.PMID) ([]string, error) {
	var names []string
	var err error
	if c.opts.ns != nil {
		names, err = c.opts.ns.NameAll(pmid)
	} else {
		names, err = c.namesOf(ctx, pmid)
	}
	if err != nil {
		return nil, fmt.Errorf("pmapi: NameAll %s: %w", pmid, err)
	}
	return names, nil
}

func (c *HostContext) namesOf(ctx context.Context, pmid pcp.PMID) ([]string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var reply pdu.PMNSNames
	if err := c.call(ctx, &pdu.PMNSIDs{PMIDs: []pcp.PMID{pmid}}, &reply); err != nil {
		return nil, err
	}
	return reply.Names, nil
}

// Children returns the names one level below a node of the namespace ("" is
// the root), as pmGetChildren does. A leaf has no children; a name not in
// the namespace is pcp.ErrName.
func (c *HostContext) Children(ctx context.Context, name string) ([]string, error) {
	kids, err := c.children(ctx, name, pdu.PMNSChildNames)
	if err != nil {
		return nil, fmt.Errorf("pmapi: Children %q: %w", name, err)
	}
	names := make([]string, len(kids))
	for i, k := range kids {
		names[i] = k.Name
	}
	return names, nil
}

// ChildrenStatus is Children with each child's status, as
// pmGetChildrenStatus gives it: whether it is a leaf (a metric) or not.
func (c *HostContext) ChildrenStatus(ctx context.Context, name string) ([]pmns.Child, error) {
	kids, err := c.children(ctx, name, pdu.PMNSChildStatus)
	if err != nil {
		return nil, fmt.Errorf("pmapi: ChildrenStatus %q: %w", name, err)
	}
	return kids, nil
}

func (c *HostContext) children(ctx context.Context, name string, subtype int32) ([]pmns.Child, error) {
	if c.opts.ns != nil {
		return c.opts.ns.Children(name)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var reply pdu.PMNSNames
	if err := c.call(ctx, &pdu.PMNSChild{Subtype: subtype, Name: name}, &reply); err != nil {
		return nil, err
	}
	kids := make([]pmns.Child, len(reply.Names))
	for i, n := range reply.Names {
		kids[i].Name = n
		if i < len(reply.Status) {
			kids[i].Leaf = reply.Status[i] == pdu.PMNSLeafStatus
		}
	}
	return kids, nil
}

// Traverse returns the full names of every metric at or below a node of
// the namespace ("" for all of them) in the order pmTraversePMNS reports
// them. A name not in the namespace is pcp.ErrName.
func (c *HostContext) Traverse(ctx context.Context, name string) ([]string, error) {
	var names []string
	var err error
	if c.opts.ns != nil {
		names, err = c.opts.ns.Traverse(name)
	} else {
		names, err = c.traverseRemote(ctx, name)
	}
	if err != nil {
		return nil, fmt.Errorf("pmapi: Traverse %q: %w", name, err)
	}
	return names, nil
}

func (c *HostContext) traverseRemote(ctx context.Context, name string) ([]string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var reply pdu.PMNSNames
	if err := c.traverseCall(ctx, &pdu.PMNSTraverse{Name: name}, &reply); err != nil {
		return nil, err
	}
	return reply.Names, nil
}
