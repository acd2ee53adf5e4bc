package pmda

import (
	"context"
	"fmt"
	"runtime/debug"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// Handle answers one decoded request from client c. It is the one place
// where pmcd's PDUs become calls of the agent's methods: Dispatch calls it
// for a daemon agent, pmcd for an agent running inside it, and local
// contexts for theirs.
//
// Requests get their reply, or an error holding the PCP code of what went
// wrong:
//
//	*pdu.Fetch         *pdu.Result (the Agent's own storage, as Fetch's result)
//	*pdu.DescReq       *pdu.Desc
//	*pdu.InstanceReq   *pdu.Instance
//	*pdu.TextReq       *pdu.Text
//	*pdu.LabelReq      *pdu.Label (at most one set below the instances level)
//	*pdu.Result        *pdu.Error of code 0: the values are stored
//	*pdu.PMNSNames     *pdu.PMNSIDs (one name, as pmcd asks)
//	*pdu.PMNSIDs       *pdu.PMNSNames (one PMID)
//	*pdu.PMNSChild     *pdu.PMNSNames
//	*pdu.PMNSTraverse  *pdu.PMNSNames
//
// Notifications get a nil reply: a *pdu.Profile becomes the agent's
// instance profile (a ProfileHook told it came from c), a *pdu.Attr
// reaches an Attributer (its error is returned), and a *pdu.Error of
// pcp.ErrNotConn ends c's context (another code is only logged). Any
// other message is pcp.ErrIPC.
//
// A panic in the agent's code does not leave Handle: it returns an error
// wrapping pcp.ErrIPC that says what panicked, and the caller decides what
// becomes of the agent (pmcd marks it dead; Serve answers and ends).
// Handle itself keeps nothing of req; a callback may keep what it is
// handed, such as an attribute's value.
func (a *Agent) Handle(ctx context.Context, c Client, req pdu.Message) (reply pdu.Message, err error) {
	defer func() {
		if v := recover(); v != nil {
			reply, err = nil, &panicError{agent: a.name, req: req.PDUType(), value: v, stack: debug.Stack()}
		}
	}()
	switch m := req.(type) {
	case *pdu.Fetch:
		if _, err := a.Fetch(ctx, c, m.PMIDs); err != nil {
			return nil, err
		}
		// Fetch's result is a.result's: answer with the PDU around it.
		return &a.result, nil
	case *pdu.DescReq:
		d, err := a.Desc(ctx, c, m.PMID)
		if err != nil {
			return nil, err
		}
		return &pdu.Desc{Desc: d}, nil
	case *pdu.InstanceReq:
		r, err := a.Instance(ctx, c, m.InDom, m.Inst, m.Name)
		if err != nil {
			return nil, err
		}
		return r, nil
	case *pdu.TextReq:
		text, err := a.Text(ctx, c, m.Ident, m.Type)
		if err != nil {
			return nil, err
		}
		return &pdu.Text{Ident: m.Ident, Text: text}, nil
	case *pdu.LabelReq:
		sets, err := a.Label(ctx, c, m.Ident, uint8(m.Type))
		if err != nil {
			return nil, err
		}
		if uint8(m.Type)&pcp.LabelInstances == 0 && len(sets) > 1 {
			sets = sets[:1]
		}
		return &pdu.Label{Ident: m.Ident, Type: m.Type, Sets: sets}, nil
	case *pdu.Result:
		if err := a.Store(ctx, c, &m.Result); err != nil {
			return nil, err
		}
		return &pdu.Error{}, nil
	case *pdu.PMNSNames:
		if len(m.Names) != 1 { // pmcd asks one name at a time
			return nil, pcp.ErrIPC
		}
		id, err := a.LookupName(ctx, c, m.Names[0])
		if err != nil {
			return nil, err
		}
		return &pdu.PMNSIDs{PMIDs: []pcp.PMID{id}}, nil
	case *pdu.PMNSIDs:
		if m.Status < 0 {
			return nil, pcp.Error(m.Status)
		}
		if len(m.PMIDs) != 1 {
			return nil, pcp.ErrIPC
		}
		names, err := a.Names(ctx, c, m.PMIDs[0])
		if err != nil {
			return nil, err
		}
		return &pdu.PMNSNames{Names: names}, nil
	case *pdu.PMNSChild:
		names, status, err := a.Children(ctx, c, m.Name)
		if err != nil {
			return nil, err
		}
		if m.Subtype == pdu.PMNSChildNames {
			status = nil
		}
		return &pdu.PMNSNames{Names: names, Status: status}, nil
	case *pdu.PMNSTraverse:
		names, err := a.Traverse(ctx, c, m.Name)
		if err != nil {
			return nil, err
		}
		return &pdu.PMNSNames{Names: names}, nil
	case *pdu.Profile:
		a.ProfileFrom(c, m)
		return nil, nil
	case *pdu.Attr:
		return nil, a.Attribute(c, m.Key, m.Value)
	case *pdu.Error:
		if pcp.Error(m.Code) == pcp.ErrNotConn {
			a.EndContext(c)
		} else {
			a.log.Printf("%s: error PDU from pmcd: %v", a.name, m.Err())
		}
		return nil, nil
	}
	return nil, fmt.Errorf("pmda: %s: %T is not a request to an agent: %w", a.name, req, pcp.ErrIPC)
}

// panicError is what Handle returns for a panic in the agent's code.
type panicError struct {
	agent string
	req   pdu.Type
	value any
	stack []byte // where it panicked, for the agent's log
}

func (e *panicError) Error() string {
	return fmt.Sprintf("agent %s panicked on a %v request: %v", e.agent, e.req, e.value)
}

func (e *panicError) Unwrap() error { return pcp.ErrIPC }
