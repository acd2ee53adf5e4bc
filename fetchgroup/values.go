package fetchgroup

import (
	"context"
	"fmt"
	"slices"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// Metric is one metric's values as Values returns them.
type Metric[T Value] struct {
	// Name is the name the caller gave.
	Name string
	// Desc is the metric's descriptor.
	Desc pcp.Desc
	// Instances are the values in instance order, with the instances'
	// names; a metric without an instance domain has one, numbered
	// pcp.InstNull and unnamed. An instance whose value could not be
	// converted has its own Err.
	Instances []Instance[T]
	// Err is the metric's own failure in the fetch (an agent's error
	// for it, pcp.ErrValue when the fetch brought nothing for it), with
	// no Instances; nil otherwise.
	Err error
}

// Values fetches the named metrics from src once and returns their
// values converted to T, in the order named: the short path from a
// context to typed values, for a program that wants numbers once rather
// than a Group fetched again and again. Counters come as they are
// (Instant), since a rate needs two fetches: make a Group for rates or
// for other scales. Names may be derived metrics, as in a Group.
//
// A name that cannot be looked up, a metric whose values cannot become
// a T, or a fetch that fails as a whole fails the call with an error
// wrapping PCP's code (errors.Is(err, pcp.ErrName) and so on). src stays
// open and the caller's to close; its instance profile is opened to
// every instance of the metrics' instance domains.
func Values[T Value](ctx context.Context, src pmapi.Source, metrics ...string) ([]Metric[T], error) {
	if len(metrics) == 0 {
		return nil, fmt.Errorf("fetchgroup: Values: no metrics named: %w", pcp.ErrTooSmall)
	}
	if src == nil {
		return nil, fmt.Errorf("fetchgroup: Values: %w", pcp.ErrNoContext)
	}
	g := New(src)
	// The group borrows src: dropping it, not closing it, leaves src to
	// the caller.
	defer func() {
		g.Clear()
		g.src = nil
	}()
	hs := make([]*InDom[T], len(metrics))
	for i, m := range metrics {
		h, err := ExtendInDom[T](ctx, g, m, &InDomOptions{Scale: Instant})
		if err != nil {
			return nil, err
		}
		hs[i] = h
	}
	if _, err := g.Fetch(ctx); err != nil {
		return nil, err
	}
	out := make([]Metric[T], len(metrics))
	for i, h := range hs {
		out[i] = Metric[T]{Name: metrics[i], Desc: h.desc, Instances: slices.Clone(h.Instances()), Err: h.Err()}
	}
	return out, nil
}
