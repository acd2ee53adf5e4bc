package pmapi

import (
	"context"
	"fmt"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// StateChange holds the changes pmcd announces ahead of a fetch's values,
// PMCD_* in PCP: agents added, restarted or dropped, labels or names
// changed since the previous fetch.
type StateChange int32

const (
	AddAgent     StateChange = 1 << 0 // PMCD_ADD_AGENT
	RestartAgent StateChange = 1 << 1 // PMCD_RESTART_AGENT
	DropAgent    StateChange = 1 << 2 // PMCD_DROP_AGENT
	LabelChange  StateChange = 1 << 3 // PMCD_LABEL_CHANGE
	NamesChange  StateChange = 1 << 4 // PMCD_NAMES_CHANGE

	// AgentChange is any of the agent changes, PMCD_AGENT_CHANGE.
	AgentChange = AddAgent | RestartAgent | DropAgent
)

// Fetch gets the current values of metrics into r, as pmFetch does,
// reusing r's storage: one value set per PMID in request order, each
// holding the values of the instances the profile selects, or an error
// code for a metric that could not be fetched (see pcp.ValueSet.Err).
// It sends the instance profile first if pmcd does not have it, then
// HIGHRES_FETCH when pmcd offers pdu.FlagHighRes (nanosecond timestamps),
// else FETCH. The StateChange is what pmcd reported along the way.
//
// Nothing in r aliases the connection's buffers, so r may be kept and
// read while other calls use the HostContext.
func (c *HostContext) Fetch(ctx context.Context, pmids []pcp.PMID, r *pcp.Result) (StateChange, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	changes, err := c.fetchLocked(ctx, pmids, r)
	if err != nil {
		return changes, fmt.Errorf("pmapi: Fetch: %w", err)
	}
	return changes, nil
}

func (c *HostContext) fetchLocked(ctx context.Context, pmids []pcp.PMID, r *pcp.Result) (StateChange, error) {
	if len(pmids) == 0 {
		return 0, pcp.ErrTooSmall
	}
	if err := c.ready(); err != nil {
		return 0, err
	}
	highRes := c.conn.features&pdu.FlagHighRes != 0
	if err := c.sendProfile(ctx); err != nil {
		return 0, err
	}
	// The requests live in c, under mu, so that a fetch allocates nothing.
	var req pdu.Message
	if highRes {
		c.highResReq = pdu.HighResFetch{Context: contextSlot, PMIDs: pmids}
		req = &c.highResReq
	} else {
		c.fetchReq = pdu.Fetch{Context: contextSlot, PMIDs: pmids}
		req = &c.fetchReq
	}
	err := c.send(ctx, req)
	c.fetchReq.PMIDs, c.highResReq.PMIDs = nil, nil // the caller's
	if err != nil {
		return 0, err
	}
	defer c.releaseReply()
	var changes StateChange
	for {
		buf, typ, err := c.receive(ctx)
		if err != nil {
			return changes, err
		}
		switch {
		case typ == pdu.TypeHighResResult && highRes:
			err = pdu.DecodeHighResResultInto(r, buf)
		case typ == pdu.TypeResult && !highRes:
			err = pdu.DecodeResultInto(r, buf)
		case typ == pdu.TypeError:
			var e pdu.Error
			if err = e.Decode(buf); err == nil {
				if e.Code > 0 {
					changes |= StateChange(e.Code)
					continue
				}
				if e.Code < 0 {
					return changes, e.Err()
				}
				err = fmt.Errorf("%w: ERROR PDU with status 0 for a fetch", pcp.ErrIPC)
			}
		default:
			err = fmt.Errorf("%w: pmcd answered a fetch with %s", pcp.ErrIPC, typ)
		}
		if err != nil {
			c.broken()
		}
		return changes, err
	}
}
