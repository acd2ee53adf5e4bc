package pmda

import (
	"context"
	"errors"
	"fmt"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// Dispatcher answers the PDUs pmcd sends on one connection, writing each
// reply to its Writer: it decodes a request, has Handle answer it, and
// encodes the reply. It keeps decoding buffers between requests, so it is
// not safe for concurrent use: one goroutine feeds it.
type Dispatcher struct {
	a *Agent
	w *pdu.Writer
	// ioCtx, when set (by Serve), is the context replies are written
	// with in place of Dispatch's: one without cancellation, as Serve
	// interrupts the connection itself when its context ends. A write
	// watching a cancellable context costs a callback registered per
	// reply (context.AfterFunc), an allocation each.
	ioCtx context.Context

	// Each request is decoded into its own kind's, reused: their
	// decoders overwrite every field, and Handle keeps nothing of them.
	fetch    pdu.Fetch
	store    pdu.Result
	desc     pdu.DescReq
	inst     pdu.InstanceReq
	text     pdu.TextReq
	label    pdu.LabelReq
	names    pdu.PMNSNames
	ids      pdu.PMNSIDs
	child    pdu.PMNSChild
	traverse pdu.PMNSTraverse
	profile  pdu.Profile
	errPDU   pdu.Error
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
// What Dispatch returns is a failure to write a reply, a buffer that is
// not one PDU, or a panic in the agent's code (a request is first
// answered with PM_ERR_IPC), after which the connection should end.
func (d *Dispatcher) Dispatch(ctx context.Context, req []byte) error {
	h, err := pdu.ParseHeader(req)
	if err != nil {
		return err
	}
	if int(h.Len) != len(req) {
		return fmt.Errorf("pmda: PDU length %d in a buffer of %d: %w", h.Len, len(req), pcp.ErrIPC)
	}
	m, notice := d.message(h.Type)
	if m == nil {
		if h.Type != pdu.TypeControlReq { // PCP's agents ignore that one too
			d.a.log.Printf("%s: unexpected %v PDU from pmcd, ignored", d.a.name, h.Type)
		}
		return nil
	}
	if err := m.Decode(req); err != nil {
		if notice {
			return nil // no answer is due, and none is given
		}
		return d.reply(ctx, nil, err)
	}
	reply, err := d.a.Handle(ctx, Client(h.From), m)
	if pe, ok := errors.AsType[*panicError](err); ok {
		d.a.log.Printf("%v\n%s", pe, pe.stack)
		if !notice {
			if werr := d.reply(ctx, nil, err); werr != nil {
				return werr
			}
		}
		return err
	}
	switch {
	case notice:
		if err != nil { // only ATTR has one
			d.a.log.Printf("%s: failed to set attribute: %v", d.a.name, err)
		}
		return nil
	case h.Type == pdu.TypeResult:
		// A store is answered with its code, whatever it is.
		return d.reply(ctx, &pdu.Error{Code: code0(err)}, nil)
	}
	return d.reply(ctx, reply, err)
}

// message is where a PDU of type t is decoded, and whether it is a
// notification, which gets no answer; nil for a type Handle does not
// serve.
func (d *Dispatcher) message(t pdu.Type) (m pdu.Message, notice bool) {
	switch t {
	case pdu.TypeFetch:
		return &d.fetch, false
	case pdu.TypeResult:
		return &d.store, false
	case pdu.TypeDescReq:
		return &d.desc, false
	case pdu.TypeInstanceReq:
		return &d.inst, false
	case pdu.TypeTextReq:
		return &d.text, false
	case pdu.TypeLabelReq:
		return &d.label, false
	case pdu.TypePMNSNames:
		return &d.names, false
	case pdu.TypePMNSIDs:
		return &d.ids, false
	case pdu.TypePMNSChild:
		return &d.child, false
	case pdu.TypePMNSTraverse:
		return &d.traverse, false
	case pdu.TypeProfile:
		return &d.profile, true
	case pdu.TypeError:
		return &d.errPDU, true
	case pdu.TypeAttr:
		// New each time: an Attributer may keep the value.
		return new(pdu.Attr), true
	}
	return nil, false
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
	wctx := ctx
	if d.ioCtx != nil {
		wctx = d.ioCtx
	}
	if err := d.w.WriteMessage(wctx, m, 0); err != nil {
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
