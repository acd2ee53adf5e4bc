package pmcd

import (
	"errors"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmns"
)

// lookupNames answers PMNS_NAMES (pmLookupName) with PCP's rules: a name
// that is missing, not a leaf, or in the dynamic subtree of an absent agent
// gets pcp.PMIDNull and the reply counts the names found; with a single
// name, its error is the answer instead.
func (c *client) lookupNames(names []string) (pdu.Message, error) {
	ids := make([]pcp.PMID, len(names))
	found := 0
	var first error
	for i, name := range names {
		id, err := c.s.PMNS.Lookup(name)
		if err == nil && pmns.IsDynamicRoot(id) {
			// The agent that owns this subtree would know; there is none.
			id, err = pcp.PMIDNull, pcp.ErrNoAgent
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

// namesOf answers PMNS_IDS (pmNameAll) for one PMID.
func (c *client) namesOf(ids []pcp.PMID) (pdu.Message, error) {
	if len(ids) != 1 {
		return nil, pcp.ErrIPC
	}
	names, err := c.s.PMNS.NameAll(ids[0])
	if err != nil {
		// pmcd would ask the domain's agent next; with none it says so.
		return nil, pcp.ErrNoAgent
	}
	return &pdu.PMNSNames{Names: names}, nil
}

// children answers PMNS_CHILD (pmGetChildren and pmGetChildrenStatus).
func (c *client) children(name string, subtype int32) (pdu.Message, error) {
	if id, err := c.s.PMNS.Lookup(name); err == nil && pmns.IsDynamicRoot(id) {
		return nil, pcp.ErrNoAgent
	}
	kids, err := c.s.PMNS.Children(name)
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
// subtrees stay in the list as pmcd leaves them when their agent is absent.
func (c *client) traverse(name string) (pdu.Message, error) {
	names, err := c.s.PMNS.Traverse(name)
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, pcp.ErrName
	}
	return &pdu.PMNSNames{Names: names}, nil
}

// descsWithoutAgents answers DESC_IDS when no agent exists: one PMID is
// pmcd's PM_ERR_PMID, several get a DESCS of null descriptors.
func descsWithoutAgents(ids []pcp.PMID) (pdu.Message, error) {
	if len(ids) == 1 {
		return nil, pcp.ErrPMID
	}
	descs := make([]pcp.Desc, len(ids))
	for i := range descs {
		descs[i].PMID = pcp.PMIDNull
	}
	return &pdu.Descs{Descs: descs}, nil
}

// noAgentResult is the RESULT pmcd sends for metrics whose agents are
// absent: each value set carries PM_ERR_NOAGENT.
func noAgentResult(ids []pcp.PMID) *pcp.Result {
	r := &pcp.Result{Timestamp: pcp.TimestampOf(timeNow()), Sets: make([]pcp.ValueSet, len(ids))}
	for i, id := range ids {
		r.Sets[i] = pcp.ValueSet{PMID: id, NumVal: int32(pcp.ErrNoAgent)}
	}
	return r
}

var errNoNamespace = errors.New("pmcd: no namespace")
