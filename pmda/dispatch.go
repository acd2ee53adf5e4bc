package pmda

import (
	"context"
	"errors"
	"fmt"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// Dispatcher answers the PDUs pmcd sends on one connection, writing each
// reply to its Writer. It keeps decoding buffers between requests, so it is
// not safe for concurrent use: one goroutine feeds it.
type Dispatcher struct {
	a *Agent
	w *pdu.Writer

	// Reused between requests.
	fetch  pdu.Fetch
	store  pcp.Result
	result pdu.Result
}

// NewDispatcher returns a Dispatcher answering for a on w.
func NewDispatcher(a *Agent, w *pdu.Writer) *Dispatcher {
	return &Dispatcher{a: a, w: w}
}

// Dispatch answers one whole PDU from pmcd, header included. Requests are
// answered with their reply or with an ERROR PDU holding the PCP code of
// what went wrong; PROFILE, ATTR and ERROR notifications get no answer, and
// neither do PDU types an agent does not serve (they are logged), as with
// libpcp_pmda.
//
// A request that does not decode is answered with PM_ERR_IPC and a
// notification that does not decode is dropped, as libpcp_pmda does: the
// PDU was whole, so the stream is still in step and the agent carries on.
// What Dispatch returns is a failure to write a reply, or a buffer that
// is not one PDU, after which the connection should end.
func (d *Dispatcher) Dispatch(ctx context.Context, req []byte) error {
	h, err := pdu.ParseHeader(req)
	if err != nil {
		return err
	}
	if int(h.Len) != len(req) {
		return fmt.Errorf("pmda: PDU length %d in a buffer of %d: %w", h.Len, len(req), pcp.ErrIPC)
	}
	c := Client(h.From)
	a := d.a
	switch h.Type {
	case pdu.TypeError:
		var m pdu.Error
		if m.Decode(req) != nil {
			return nil // no answer is due, and none is given
		}
		if pcp.Error(m.Code) == pcp.ErrNotConn {
			a.EndContext(c)
		} else {
			a.log.Printf("%s: error PDU from pmcd: %v", a.name, m.Err())
		}
		return nil
	case pdu.TypeProfile:
		var m pdu.Profile
		if m.Decode(req) != nil {
			return nil // no answer is due, and none is given
		}
		a.ProfileFrom(c, &m)
		return nil
	case pdu.TypeAttr:
		var m pdu.Attr
		if m.Decode(req) != nil {
			return nil // no answer is due, and none is given
		}
		if err := a.Attribute(c, m.Key, m.Value); err != nil {
			a.log.Printf("%s: failed to set attribute: %v", a.name, err)
		}
		return nil
	case pdu.TypeFetch:
		if err := d.fetch.Decode(req); err != nil {
			return d.reply(ctx, nil, err)
		}
		res, err := a.Fetch(ctx, c, d.fetch.PMIDs)
		if err != nil {
			return d.reply(ctx, nil, err)
		}
		d.result.Result = *res
		return d.reply(ctx, &d.result, nil)
	case pdu.TypeDescReq:
		var m pdu.DescReq
		if err := m.Decode(req); err != nil {
			return d.reply(ctx, nil, err)
		}
		desc, err := a.Desc(ctx, c, m.PMID)
		return d.reply(ctx, &pdu.Desc{Desc: desc}, err)
	case pdu.TypeInstanceReq:
		var m pdu.InstanceReq
		if err := m.Decode(req); err != nil {
			return d.reply(ctx, nil, err)
		}
		res, err := a.Instance(ctx, c, m.InDom, m.Inst, m.Name)
		return d.reply(ctx, res, err)
	case pdu.TypeTextReq:
		var m pdu.TextReq
		if err := m.Decode(req); err != nil {
			return d.reply(ctx, nil, err)
		}
		text, err := a.Text(ctx, c, m.Ident, m.Type)
		return d.reply(ctx, &pdu.Text{Ident: m.Ident, Text: text}, err)
	case pdu.TypeLabelReq:
		var m pdu.LabelReq
		if err := m.Decode(req); err != nil {
			return d.reply(ctx, nil, err)
		}
		sets, err := a.Label(ctx, c, m.Ident, uint8(m.Type))
		if err == nil && uint8(m.Type)&pcp.LabelInstances == 0 && len(sets) > 1 {
			sets = sets[:1]
		}
		return d.reply(ctx, &pdu.Label{Ident: m.Ident, Type: m.Type, Sets: sets}, err)
	case pdu.TypeResult:
		if err := pdu.DecodeResultInto(&d.store, req); err != nil {
			return d.reply(ctx, nil, err)
		}
		err := a.Store(ctx, c, &d.store)
		return d.reply(ctx, &pdu.Error{Code: code0(err)}, nil)
	case pdu.TypePMNSNames:
		var m pdu.PMNSNames
		if err := m.Decode(req); err != nil {
			return d.reply(ctx, nil, err)
		}
		if len(m.Names) != 1 { // pmcd asks one name at a time
			return d.reply(ctx, nil, pcp.ErrIPC)
		}
		id, err := a.LookupName(ctx, c, m.Names[0])
		return d.reply(ctx, &pdu.PMNSIDs{PMIDs: []pcp.PMID{id}}, err)
	case pdu.TypePMNSIDs:
		var m pdu.PMNSIDs
		if err := m.Decode(req); err != nil {
			return d.reply(ctx, nil, err)
		}
		if m.Status < 0 {
			return d.reply(ctx, nil, pcp.Error(m.Status))
		}
		if len(m.PMIDs) != 1 {
			return d.reply(ctx, nil, pcp.ErrIPC)
		}
		names, err := a.Names(ctx, c, m.PMIDs[0])
		return d.reply(ctx, &pdu.PMNSNames{Names: names}, err)
	case pdu.TypePMNSChild:
		var m pdu.PMNSChild
		if err := m.Decode(req); err != nil {
			return d.reply(ctx, nil, err)
		}
		names, status, err := a.Children(ctx, c, m.Name)
		if m.Subtype == pdu.PMNSChildNames {
			status = nil
		}
		return d.reply(ctx, &pdu.PMNSNames{Names: names, Status: status}, err)
	case pdu.TypePMNSTraverse:
		var m pdu.PMNSTraverse
		if err := m.Decode(req); err != nil {
			return d.reply(ctx, nil, err)
		}
		names, err := a.Traverse(ctx, c, m.Name)
		return d.reply(ctx, &pdu.PMNSNames{Names: names}, err)
	case pdu.TypeControlReq:
		return nil // PCP's agents ignore it too
	default:
		a.log.Printf("%s: unexpected %v PDU from pmcd, ignored", a.name, h.Type)
		return nil
	}
}

// reply sends m, or when err is not nil an ERROR PDU with its PCP code.
// A context error is not the client's business: it is returned instead.
func (d *Dispatcher) reply(ctx context.Context, m pdu.Message, err error) error {
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		m = &pdu.Error{Code: int32(pcp.CodeOf(err, pcp.ErrGeneric))}
	}
	if err := d.w.WriteMessage(ctx, m, 0); err != nil {
		return err
	}
	if errors.Is(err, pcp.ErrPMDANotReady) {
		return d.awaitReady(ctx)
	}
	return nil
}

// code0 is code for an error and 0 for none.
func code0(err error) int32 {
	if err == nil {
		return 0
	}
	return int32(pcp.CodeOf(err, pcp.ErrGeneric))
}
