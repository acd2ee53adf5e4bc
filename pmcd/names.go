package pmcd

import (
	"context"
	"errors"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmns"
)

// lookupNames answers PMNS_NAMES (pmLookupName) with PCP's rules: a name
// that is missing, not a leaf, or in the dynamic subtree of an absent agent
// gets pcp.PMIDNull and the reply counts the names found; with a single
// name, its error is the answer instead.
func (c *client) lookupNames(ctx context.Context, names []string) (pdu.Message, error) {
	ids := make([]pcp.PMID, len(names))
	found := 0
	var first error
	for i, name := range names {
		id, err := c.st.pmns.Lookup(name)
		if err == nil && pmns.IsDynamicRoot(id) {
			// The agent that owns this subtree knows its names.
			id, err = c.dynamicLookup(ctx, id, name)
		}
		if err != nil {
			ids[i] = pcp.PMIDNull
			if first == nil {
				first = err
			}
			continue
		}
		ids[i] = id
		found++
	}
	if len(names) == 1 && found == 0 {
		return nil, first
	}
	return &pdu.PMNSIDs{Status: int32(found), PMIDs: ids}, nil
}

// dynamicLookup asks the agent owning the dynamic subtree root for the
// PMID of name.
func (c *client) dynamicLookup(ctx context.Context, root pcp.PMID, name string) (pcp.PMID, error) {
	d, _ := pmns.DynamicDomain(root)
	m, err := c.ask(ctx, d, &pdu.PMNSNames{Names: []string{name}}, pcp.ErrNoAgent)
	if err != nil {
		return pcp.PMIDNull, err
	}
	ids := m.(*pdu.PMNSIDs)
	if len(ids.PMIDs) != 1 || ids.PMIDs[0] == pcp.PMIDNull {
		return pcp.PMIDNull, pcp.ErrName
	}
	return ids.PMIDs[0], nil
}

// namesOf answers PMNS_IDS (pmNameAll) for one PMID: from the namespace,
// else from the agent of its domain, which may serve it dynamically.
func (c *client) namesOf(ctx context.Context, ids []pcp.PMID) (pdu.Message, error) {
	if len(ids) != 1 {
		return nil, pcp.ErrIPC
	}
	names, err := c.st.pmns.NameAll(ids[0])
	if err != nil {
		return c.ask(ctx, ids[0].Domain(), &pdu.PMNSIDs{PMIDs: ids}, pcp.ErrNoAgent)
	}
	return &pdu.PMNSNames{Names: names}, nil
}

// children answers PMNS_CHILD (pmGetChildren and pmGetChildrenStatus).
func (c *client) children(ctx context.Context, name string, subtype int32) (pdu.Message, error) {
	if id, err := c.st.pmns.Lookup(name); err == nil && pmns.IsDynamicRoot(id) {
		d, _ := pmns.DynamicDomain(id)
		return c.ask(ctx, d, &pdu.PMNSChild{Name: name, Subtype: subtype}, pcp.ErrNoAgent)
	}
	kids, err := c.st.pmns.Children(name)
	if err != nil {
		return nil, err
	}
	m := &pdu.PMNSNames{Names: make([]string, len(kids))}
	if subtype != pdu.PMNSChildNames {
		m.Status = make([]int32, len(kids))
	}
	for i, k := range kids {
		m.Names[i] = k.Name
		if m.Status != nil && !k.Leaf {
			m.Status[i] = pdu.PMNSNonLeafStatus
		}
	}
	return m, nil
}

// traverse answers PMNS_TRAVERSE (pmTraversePMNS). The roots of dynamic
// subtrees are replaced by what their agents list below them; a root
// stays in the list as pmcd leaves it when its agent is absent or fails.
func (c *client) traverse(ctx context.Context, name string) (pdu.Message, error) {
	if id, err := c.st.pmns.Lookup(name); err == nil && pmns.IsDynamicRoot(id) {
		// At or below a dynamic root: the agent lists it all.
		// Without a live agent, the namespace's own answer stands.
		d, _ := pmns.DynamicDomain(id)
		m, err := c.ask(ctx, d, &pdu.PMNSTraverse{Name: name}, pcp.ErrNoAgent)
		if n, ok := m.(*pdu.PMNSNames); err == nil && ok && len(n.Names) == 0 {
			// A name the agent does not know, as PCP's pmcd
			// reports it.
			return nil, pcp.ErrName
		}
		if !errors.Is(err, pcp.ErrNoAgent) {
			return m, err
		}
	}
	found, err := c.st.pmns.Traverse(name)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, n := range found {
		id, err := c.st.pmns.Lookup(n)
		if err != nil || !pmns.IsDynamicRoot(id) {
			names = append(names, n)
			continue
		}
		d, _ := pmns.DynamicDomain(id)
		m, err := c.ask(ctx, d, &pdu.PMNSTraverse{Name: n}, pcp.ErrNoAgent)
		if err != nil {
			names = append(names, n)
			continue
		}
		names = append(names, m.(*pdu.PMNSNames).Names...)
	}
	if len(names) == 0 {
		return nil, pcp.ErrName
	}
	return &pdu.PMNSNames{Names: names}, nil
}

var errNoNamespace = errors.New("pmcd: no namespace")
