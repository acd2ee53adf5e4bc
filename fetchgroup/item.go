package fetchgroup

import (
	"context"

	"github.com/gopcp/gopcp/pcp"
)

// Item is the handle of one metric (and instance) of a group, filled by
// each Fetch with a value of type T.
type Item[T Value] struct {
	pmid pcp.PMID
	desc pcp.Desc
	inst int32
	conv conversion
	out  pcp.Type

	val pcp.Atom
	err error
}

// ExtendItem adds one metric to g, as pmExtendFetchGroup_item does: a
// metric without an instance domain, or the instance of one with an
// instance domain that opts names, converted as opts.Scale says (see
// ItemOptions; nil is the zero value). The name, the instance and the
// conversion are checked at once, and a failure leaves g as it was; on
// an archive, a metric or instance the archive defines only later is
// looked up at its end.
func ExtendItem[T Value](ctx context.Context, g *Group, metric string, opts *ItemOptions) (*Item[T], error) {
	var o ItemOptions
	if opts != nil {
		o = *opts
	}
	instance, scale := o.Instance, o.Scale
	it := &Item[T]{out: typeOf[T]()}
	lookup := func() error {
		pmid, d, err := g.lookup(ctx, metric)
		if err != nil {
			return err
		}
		inst, err := g.instance(ctx, d, instance)
		if err != nil {
			return err
		}
		it.pmid, it.desc, it.inst = pmid, d, inst
		return nil
	}
	if err := lookup(); err != nil {
		if err = g.retryAtEnd(ctx, err, lookup); err != nil {
			return nil, extendError(metric, err)
		}
	}
	conv, err := prepare(it.desc, scale, it.out)
	if err != nil {
		return nil, extendError(metric, err)
	}
	it.conv = conv
	g.addPMID(it.pmid)
	it.clear()
	g.members = append(g.members, it)
	return it, nil
}

// Value is the value of the last Fetch, or T's sentinel (see the package
// documentation) when Err is not nil.
func (it *Item[T]) Value() T { return fromAtom[T](&it.val) }

// Err is why the last Fetch gave no value: the metric's or the fetch's
// error as a pcp.Error, pcp.ErrAgain for a rate without a previous value,
// pcp.ErrValue for a value missing from the fetch; nil when Value holds a
// value.
func (it *Item[T]) Err() error { return it.err }

// Desc is the metric's descriptor.
func (it *Item[T]) Desc() pcp.Desc { return it.desc }

func (it *Item[T]) clear() {
	it.val, it.err = sentinel(it.out), pcp.ErrValue
}

func (it *Item[T]) reset() {
	if it.desc.Sem != pcp.SemDiscrete {
		it.clear()
	}
}

func (it *Item[T]) fill(ctx context.Context, g *Group, s *sample) {
	if it.desc.Sem == pcp.SemDiscrete {
		// A discrete metric keeps its last value through fetches that
		// bring none; a fetch with values replaces it.
		for i := range s.sets {
			if s.sets[i].PMID != it.pmid {
				continue
			}
			if s.sets[i].NumVal == 0 {
				return
			}
			if s.sets[i].NumVal > 0 {
				it.clear()
				break
			}
		}
	}
	a, err := g.value(s, 0, it.pmid, &it.desc, it.inst, &it.conv, it.out, nowhere)
	if err != nil {
		it.err = err
		return
	}
	it.val, it.err = a, nil
}
