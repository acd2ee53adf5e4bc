package pmapi

import (
	"context"
	"fmt"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// LookupDesc returns a metric's descriptor, as pmLookupDesc does; an
// unknown PMID is pcp.ErrPMID and one whose agent is missing
// pcp.ErrNoAgent.
func (c *HostContext) LookupDesc(ctx context.Context, pmid pcp.PMID) (pcp.Desc, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var reply pdu.Desc
	if err := c.call(ctx, &pdu.DescReq{PMID: pmid}, &reply); err != nil {
		return pcp.Desc{}, fmt.Errorf("pmapi: LookupDesc %s: %w", pmid, err)
	}
	return reply.Desc, nil
}

// LookupDescs returns the descriptors of several metrics, as pmLookupDescs
// does: in one DESC_IDS request when pmcd offers pdu.FlagDescs, else one
// DESC_REQ per metric. A metric without a descriptor gets one whose PMID
// is pcp.PMIDNull; the error is for the request as a whole.
func (c *HostContext) LookupDescs(ctx context.Context, pmids []pcp.PMID) ([]pcp.Desc, error) {
	if len(pmids) == 0 {
		return nil, fmt.Errorf("pmapi: LookupDescs: %w", pcp.ErrTooSmall)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.ready(); err != nil {
		return nil, fmt.Errorf("pmapi: LookupDescs: %w", err)
	}
	descs := make([]pcp.Desc, len(pmids))
	if c.conn.features&pdu.FlagDescs != 0 {
		var reply pdu.Descs
		if err := c.call(ctx, &pdu.DescIDs{PMIDs: pmids}, &reply); err != nil {
			return nil, fmt.Errorf("pmapi: LookupDescs: %w", err)
		}
		if len(reply.Descs) != len(pmids) {
			c.broken()
			return nil, fmt.Errorf("pmapi: LookupDescs: %w: %d descriptors for %d PMIDs", pcp.ErrIPC, len(reply.Descs), len(pmids))
		}
		copy(descs, reply.Descs)
		return descs, nil
	}
	for i, pmid := range pmids {
		var reply pdu.Desc
		err := c.call(ctx, &pdu.DescReq{PMID: pmid}, &reply)
		switch {
		case err == nil:
			descs[i] = reply.Desc
		case c.conn == nil:
			return nil, fmt.Errorf("pmapi: LookupDescs: %w", err)
		default:
			descs[i] = pcp.Desc{PMID: pcp.PMIDNull}
		}
	}
	return descs, nil
}
