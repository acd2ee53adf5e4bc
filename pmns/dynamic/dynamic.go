// Package dynamic answers the namespace questions of a client (pmLookupName,
// pmNameAll, pmGetChildren, pmTraversePMNS) over a namespace whose dynamic
// subtrees (DOMAIN:*:* entries) belong to agents, as PCP's pmcd and
// libpcp's local contexts answer them: a name at or below a dynamic root
// is the owning agent's to answer, and a domain without an agent gives
// PM_ERR_NOAGENT. pmcd and pmapi/local both use it, each asking agents
// its own way (Asker).
//
// The functions are safe for concurrent use when the tree and the Asker
// are.
package dynamic

import (
	"context"
	"errors"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmns"
)

// Asker hands a namespace request to the agent of a domain and returns
// its answer; a domain without an agent is pcp.ErrNoAgent.
type Asker func(ctx context.Context, domain uint32, req pdu.Message) (pdu.Message, error)

// LookupNames is PMNS_NAMES: a name that is missing, not a leaf, or in
// the dynamic subtree of an absent agent gets pcp.PMIDNull, and found
// counts the others; with a single name, its error is returned instead.
func LookupNames(ctx context.Context, t *pmns.Tree, ask Asker, names []string) (ids []pcp.PMID, found int, err error) {
	ids = make([]pcp.PMID, len(names))
	var first error
	for i, name := range names {
		id, err := t.Lookup(name)
		if err == nil && pmns.IsDynamicRoot(id) {
			id, err = lookupDynamic(ctx, ask, id, name)
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
		return ids, 0, first
	}
	return ids, found, nil
}

// lookupDynamic asks the agent owning the dynamic subtree root for the
// PMID of name.
func lookupDynamic(ctx context.Context, ask Asker, root pcp.PMID, name string) (pcp.PMID, error) {
	d, _ := pmns.DynamicDomain(root)
	m, err := ask(ctx, d, &pdu.PMNSNames{Names: []string{name}})
	if err != nil {
		return pcp.PMIDNull, err
	}
	ids, ok := m.(*pdu.PMNSIDs)
	if !ok || len(ids.PMIDs) != 1 || ids.PMIDs[0] == pcp.PMIDNull {
		return pcp.PMIDNull, pcp.ErrName
	}
	return ids.PMIDs[0], nil
}

// NameAll is PMNS_IDS for one PMID: its names in the namespace, else
// those the agent of its domain gives, which may serve it dynamically.
func NameAll(ctx context.Context, t *pmns.Tree, ask Asker, id pcp.PMID) ([]string, error) {
	names, err := t.NameAll(id)
	if err == nil {
		return names, nil
	}
	m, err := ask(ctx, id.Domain(), &pdu.PMNSIDs{PMIDs: []pcp.PMID{id}})
	if err != nil {
		return nil, err
	}
	n, ok := m.(*pdu.PMNSNames)
	if !ok {
		return nil, pcp.ErrIPC
	}
	return n.Names, nil
}

// Children is PMNS_CHILD: the names below a node, with each one's status
// (leaf or not) unless subtype is pdu.PMNSChildNames; a dynamic root's
// are its agent's.
func Children(ctx context.Context, t *pmns.Tree, ask Asker, name string, subtype int32) (*pdu.PMNSNames, error) {
	if id, err := t.Lookup(name); err == nil && pmns.IsDynamicRoot(id) {
		d, _ := pmns.DynamicDomain(id)
		m, err := ask(ctx, d, &pdu.PMNSChild{Name: name, Subtype: subtype})
		if err != nil {
			return nil, err
		}
		n, ok := m.(*pdu.PMNSNames)
		if !ok {
			return nil, pcp.ErrIPC
		}
		return n, nil
	}
	kids, err := t.Children(name)
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

// Traverse is PMNS_TRAVERSE: the metric names at or below a node. The
// roots of dynamic subtrees are replaced by what their agents list below
// them; a root stays in the list when its agent is absent or fails, as
// pmcd leaves it.
func Traverse(ctx context.Context, t *pmns.Tree, ask Asker, name string) ([]string, error) {
	if id, err := t.Lookup(name); err == nil && pmns.IsDynamicRoot(id) {
		// At or below a dynamic root: the agent lists it all.
		// Without a live agent, the namespace's own answer stands.
		d, _ := pmns.DynamicDomain(id)
		m, err := ask(ctx, d, &pdu.PMNSTraverse{Name: name})
		n, ok := m.(*pdu.PMNSNames)
		switch {
		case err == nil && ok && len(n.Names) == 0:
			// A name the agent does not know, as PCP's pmcd
			// reports it.
			return nil, pcp.ErrName
		case err == nil && ok:
			return n.Names, nil
		case err == nil:
			return nil, pcp.ErrIPC
		case !errors.Is(err, pcp.ErrNoAgent):
			return nil, err
		}
	}
	found, err := t.Traverse(name)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, n := range found {
		id, err := t.Lookup(n)
		if err != nil || !pmns.IsDynamicRoot(id) {
			names = append(names, n)
			continue
		}
		d, _ := pmns.DynamicDomain(id)
		m, err := ask(ctx, d, &pdu.PMNSTraverse{Name: n})
		if nn, ok := m.(*pdu.PMNSNames); err == nil && ok {
			names = append(names, nn.Names...)
			continue
		}
		names = append(names, n)
	}
	if len(names) == 0 {
		return nil, pcp.ErrName
	}
	return names, nil
}
