package fetchgroup

import (
	"context"
	"fmt"
	"time"

	"github.com/gopcp/gopcp/pcp"
)

// Event is the handle of one field of the records of an event metric,
// filled by each Fetch with the field's values in record order.
type Event[T Value] struct {
	pmid      pcp.PMID
	desc      pcp.Desc
	inst      int32
	field     pcp.PMID
	fieldDesc pcp.Desc
	conv      conversion
	out       pcp.Type

	vals []Field[T] // the first n filled; kept between fetches
	n    int
	err  error
}

// Field is one occurrence of an event field: the time of its record, its
// value, and why there is none (Value is then T's sentinel and Time zero).
type Field[T Value] struct {
	Time  time.Time
	Value T
	Err   error
}

// ExtendEvent adds one field of an event metric's records to g, as
// pmExtendFetchGroup_event does: metric must be of type PM_TYPE_EVENT or
// PM_TYPE_HIGHRES_EVENT (else pcp.ErrType), with opts.Instance naming
// one of its instances when it has an instance domain (see EventOptions;
// nil is the zero value); field is the metric of the parameter wanted,
// which must have no instance domain. Every value of the field in every
// record of a fetch is delivered, however many: unlike libpcp there is
// no maximum to choose, the handle's storage growing to the largest
// fetch. opts.Scale may rescale units but not ask for a rate
// (pcp.ErrConv).
func ExtendEvent[T Value](ctx context.Context, g *Group, metric, field string, opts *EventOptions) (*Event[T], error) {
	var o EventOptions
	if opts != nil {
		o = *opts
	}
	instance, scale := o.Instance, o.Scale
	h := &Event[T]{out: typeOf[T]()}
	lookup := func() error {
		pmid, d, err := g.lookup(ctx, metric)
		if err != nil {
			return err
		}
		inst, err := g.instance(ctx, d, instance)
		if err != nil {
			return err
		}
		fpmid, fd, err := g.lookup(ctx, field)
		if err != nil {
			return fmt.Errorf("field %s: %w", field, err)
		}
		if fd.InDom != pcp.InDomNull {
			return fmt.Errorf("field %s has an instance domain: %w", field, pcp.ErrInDom)
		}
		h.pmid, h.desc, h.inst, h.field, h.fieldDesc = pmid, d, inst, fpmid, fd
		return nil
	}
	if err := lookup(); err != nil {
		if err = g.retryAtEnd(ctx, err, lookup); err != nil {
			return nil, extendError(metric, err)
		}
	}
	if h.desc.Type != pcp.TypeEvent && h.desc.Type != pcp.TypeHighResEvent {
		return nil, extendError(metric, fmt.Errorf("not an event metric: %w", pcp.ErrType))
	}
	var err error
	if h.conv, err = prepare(h.fieldDesc, scale, h.out); err != nil {
		return nil, extendError(metric, fmt.Errorf("field %s: %w", field, err))
	}
	if h.conv.rate {
		return nil, extendError(metric, fmt.Errorf("field %s: event fields have no rates: %w", field, pcp.ErrConv))
	}
	g.addPMID(h.pmid)
	h.clear()
	g.members = append(g.members, h)
	return h, nil
}

// Len is the number of fields the last Fetch filled.
func (h *Event[T]) Len() int { return h.n }

// Fields are the fields the last Fetch filled, in record order. The slice
// is the handle's and is overwritten by the next Fetch.
func (h *Event[T]) Fields() []Field[T] { return h.vals[:h.n] }

// Err is the error of the event metric as a whole: its fetch error, an
// event array that cannot be unpacked, pcp.ErrValue when the fetch had no
// value set for it; nil otherwise, even with no records.
func (h *Event[T]) Err() error { return h.err }

func (h *Event[T]) clear() {
	h.vals = h.vals[:0]
	h.n = 0
	h.err = nil
}

// reset clears the outputs before every fetch: records are never kept.
func (h *Event[T]) reset() { h.clear() }

func (h *Event[T]) fill(ctx context.Context, g *Group, s *sample) {
	h.err = h.fillRecords(g, s)
}

func (h *Event[T]) fillRecords(g *Group, s *sample) error {
	var vs *pcp.ValueSet
	for i := range s.sets {
		if s.sets[i].PMID == h.pmid {
			vs = &s.sets[i]
			break
		}
	}
	if vs == nil {
		return pcp.ErrValue
	}
	if vs.NumVal < 0 {
		return pcp.Error(vs.NumVal)
	}
	var v *pcp.Value
	for j := range vs.Values {
		if h.desc.InDom == pcp.InDomNull || vs.Values[j].Inst == h.inst {
			v = &vs.Values[j]
			break
		}
	}
	if v == nil {
		return nil // no records, no trouble
	}
	highres := h.desc.Type == pcp.TypeHighResEvent
	if vs.ValFmt != pcp.ValDPtr && vs.ValFmt != pcp.ValSPtr {
		return pcp.ErrConv
	}
	if v.Block.Type != h.desc.Type {
		return pcp.ErrType
	}
	recs, err := pcp.UnpackEvents(v.Block.Data, highres)
	if err != nil {
		return err
	}
	for r := range recs {
		rec := &recs[r]
		sm := sample{sets: rec.Params, ts: pcp.TimestampOf(rec.Time)}
		for p := range rec.Params {
			// A field may occur several times in a record; each
			// occurrence is one output.
			if rec.Params[p].PMID != h.field || rec.Params[p].NumVal != 1 {
				continue
			}
			h.vals = append(h.vals, Field[T]{Value: fromAtom[T](ptr(sentinel(h.out))), Err: pcp.ErrValue})
			out := &h.vals[h.n]
			h.n++
			a, err := g.value(&sm, p, h.field, &h.fieldDesc, pcp.InstNull, &h.conv, h.out, at{p, 0})
			if err != nil {
				out.Err = err
				continue
			}
			out.Value, out.Time, out.Err = fromAtom[T](&a), rec.Time, nil
		}
	}
	return nil
}
