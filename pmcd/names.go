package pmcd

import (
	"context"
	"errors"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmns/dynamic"
)

// askNames is how pmcd asks an agent a namespace question for a client:
// a domain without an agent is PM_ERR_NOAGENT.
func (c *client) askNames(ctx context.Context, domain uint32, req pdu.Message) (pdu.Message, error) {
	return c.ask(ctx, domain, req, pcp.ErrNoAgent)
}

// lookupNames answers PMNS_NAMES (pmLookupName) with PCP's rules
// (dynamic.LookupNames).
func (c *client) lookupNames(ctx context.Context, names []string) (pdu.Message, error) {
	ids, found, err := dynamic.LookupNames(ctx, c.st.pmns, c.askNames, names)
	if err != nil {
		return nil, err
	}
	return &pdu.PMNSIDs{Status: int32(found), PMIDs: ids}, nil
}

// namesOf answers PMNS_IDS (pmNameAll) for one PMID.
func (c *client) namesOf(ctx context.Context, ids []pcp.PMID) (pdu.Message, error) {
	if len(ids) != 1 {
		return nil, pcp.ErrIPC
	}
	names, err := dynamic.NameAll(ctx, c.st.pmns, c.askNames, ids[0])
	if err != nil {
		return nil, err
	}
	return &pdu.PMNSNames{Names: names}, nil
}

// children answers PMNS_CHILD (pmGetChildren and pmGetChildrenStatus).
func (c *client) children(ctx context.Context, name string, subtype int32) (pdu.Message, error) {
	return dynamic.Children(ctx, c.st.pmns, c.askNames, name, subtype)
}

// traverse answers PMNS_TRAVERSE (pmTraversePMNS).
func (c *client) traverse(ctx context.Context, name string) (pdu.Message, error) {
	names, err := dynamic.Traverse(ctx, c.st.pmns, c.askNames, name)
	if err != nil {
		return nil, err
	}
	return &pdu.PMNSNames{Names: names}, nil
}

var errNoNamespace = errors.New("pmcd: no namespace")
