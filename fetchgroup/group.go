package fetchgroup

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
	"github.com/gopcp/gopcp/pmapi/derived"
)

// Group is a fetchgroup: a private context, the metrics it fetches and
// the handles their converted values go to. The zero Group is not usable;
// make one with Create or New.
type Group struct {
	src  pmapi.Source
	wrap bool

	members []member
	pmids   []pcp.PMID // each metric once, in the order first asked for
	indoms  map[pcp.InDom]*indomNames

	res  [2]pcp.Result // the current fetch and the previous one, alternating
	next int           // which of res the next fetch decodes into
	cur  sample
	prev *sample // nil until a fetch has succeeded
	prv  sample
}

// member is one extension of a group.
type member interface {
	// reset gives the outputs their sentinels before a fetch (discrete
	// metrics keep theirs until the fetch shows a value).
	reset()
	// fill takes the member's values from the fetch just made.
	fill(ctx context.Context, g *Group, s *sample)
	// clear gives every output its sentinel for good.
	clear()
}

// Create makes a group on a new private context, as pmCreateFetchGroup
// does: kind and name are those of pmapi.NewContext (a local context is
// made by pmapi/local and given to New). The context has the
// process's derived metrics (derive.Global), as every libpcp context has.
func Create(ctx context.Context, kind pmapi.Kind, name string, opts ...pmapi.Option) (*Group, error) {
	src, err := pmapi.NewContext(ctx, kind, name, opts...)
	if err != nil {
		return nil, fmt.Errorf("fetchgroup: %w", err)
	}
	return New(src), nil
}

// New makes a group on src, which becomes the group's private context:
// the group closes it, and the caller should change only its settings
// (such as an archive's time mode) and before extending the group. A
// plain context gets the process's derived metrics laid over it
// (derived.Wrap with derive.Global); one already wrapped by
// pmapi/derived, with a registry of the caller's, is used as it is.
func New(src pmapi.Source) *Group {
	if src != nil {
		src = derived.Wrap(src, nil)
	}
	return &Group{src: src, indoms: map[pcp.InDom]*indomNames{}}
}

// SetCounterWrap makes the group take a negative difference of a
// counter as one wrap of its integer type, as libpcp does when
// PCP_COUNTER_WRAP is set (PCP's tools read the variable and call
// this); without it such a rate has no value (pcp.ErrValue).
func (g *Group) SetCounterWrap(on bool) { g.wrap = on }

// Source returns the group's private context, pmGetFetchGroupContext,
// for its settings (an archive's SetMode, a host's Reconnect): the
// concrete context the group was made on, beneath the derived-metrics
// layer, so that callers can reach its kind's methods.
func (g *Group) Source() pmapi.Source {
	if g.src == nil {
		return nil
	}
	return derived.Underlying(g.src)
}

func (g *Group) addPMID(pmid pcp.PMID) {
	if !slices.Contains(g.pmids, pmid) {
		g.pmids = append(g.pmids, pmid)
	}
}

// lookup finds a metric's PMID and descriptor.
func (g *Group) lookup(ctx context.Context, metric string) (pcp.PMID, pcp.Desc, error) {
	if g.src == nil {
		return 0, pcp.Desc{}, pcp.ErrNoContext
	}
	pmid, err := g.src.LookupName(ctx, metric)
	if err != nil {
		return 0, pcp.Desc{}, err
	}
	d, err := g.src.LookupDesc(ctx, pmid)
	return pmid, d, err
}

// instance checks that instance is given exactly when d has an instance
// domain, and finds its number, adding it to the instance profile.
func (g *Group) instance(ctx context.Context, d pcp.Desc, instance string) (int32, error) {
	if (d.InDom == pcp.InDomNull) != (instance == "") {
		if instance == "" {
			return 0, fmt.Errorf("the metric has an instance domain and no instance was named: %w", pcp.ErrInDom)
		}
		return 0, fmt.Errorf("instance %q of a metric without instances: %w", instance, pcp.ErrInDom)
	}
	if d.InDom == pcp.InDomNull {
		return pcp.InstNull, nil
	}
	inst, err := g.src.LookupInDom(ctx, d.InDom, instance)
	if err != nil {
		return 0, err
	}
	return inst, g.src.AddProfile(d.InDom, []int32{inst})
}

// retryAtEnd runs a failed lookup again with an archive context
// positioned at the archive's end, where metrics and instances that
// appear late in the archive are known, as libpcp does. Contexts of other
// kinds, and archive contexts without the means, keep the first error.
func (g *Group) retryAtEnd(ctx context.Context, err error, lookup func() error) error {
	if g.src == nil || g.src.Kind() != pmapi.KindArchive {
		return err
	}
	e, ok := derived.Underlying(g.src).(EndVisitor)
	if !ok {
		return err
	}
	return e.AtEnd(ctx, lookup)
}

// EndVisitor is what an archive context offers fetchgroups for metrics
// and instances not yet defined at its current time: AtEnd runs f with the
// context positioned at the archive's end, then puts back its position,
// mode and interval, returning f's error or else the repositioning's.
type EndVisitor interface {
	AtEnd(ctx context.Context, f func() error) error
}

// Fetch fetches every metric of the group at once and fills every handle,
// as pmFetchGroup does. Outputs whose values cannot be had get their
// sentinels and errors; when the fetch itself fails every output does
// (discrete metrics keep their values), the error is returned, and the
// previous successful fetch stays the base for rates. The StateChange is
// what the context reported.
func (g *Group) Fetch(ctx context.Context) (pmapi.StateChange, error) {
	if g.src == nil {
		return 0, fmt.Errorf("fetchgroup: closed: %w", pcp.ErrNoContext)
	}
	for _, m := range g.members {
		m.reset()
	}
	var (
		changes pmapi.StateChange
		err     error
	)
	r := &g.res[g.next]
	if len(g.pmids) == 0 {
		err = pcp.ErrTooSmall // what pmFetch says to a request for nothing
	} else {
		changes, err = g.src.Fetch(ctx, g.pmids, r)
	}
	cur := &g.cur
	if err != nil {
		*cur = sample{ts: pcp.TimestampOf(time.Now())}
	} else {
		sortInstances(r)
		*cur = sample{sets: r.Sets, ts: r.Timestamp}
	}
	// libpcp keeps its items newest first and fills them in that order;
	// the only visible effect is on the instance-name cache, shared by
	// members, which is the same either way.
	for i := len(g.members) - 1; i >= 0; i-- {
		g.members[i].fill(ctx, g, cur)
	}
	if err == nil {
		g.prv = *cur
		g.prev = &g.prv
		g.next = 1 - g.next
	}
	if err != nil {
		return changes, fmt.Errorf("fetchgroup: %w", err)
	}
	return changes, nil
}

// sortInstances orders each value set's values by instance, as
// pmSortInstances does, so that instance domains come out in order.
func sortInstances(r *pcp.Result) {
	for i := range r.Sets {
		v := r.Sets[i].Values
		if !slices.IsSortedFunc(v, byInst) {
			slices.SortStableFunc(v, byInst)
		}
	}
}

func byInst(a, b pcp.Value) int {
	switch {
	case a.Inst < b.Inst:
		return -1
	case a.Inst > b.Inst:
		return 1
	}
	return 0
}

// Clear drops every extension and the previous fetch, keeping the
// context as it is (its position in an archive included), as
// pmClearFetchGroup does. Handles made before hold their sentinels and
// are no longer filled.
func (g *Group) Clear() {
	for _, m := range g.members {
		m.clear()
	}
	g.members = nil
	g.pmids = nil
	g.indoms = map[pcp.InDom]*indomNames{}
	g.prev = nil
	g.cur, g.prv = sample{}, sample{}
}

// Close clears the group and closes its context, pmDestroyFetchGroup.
// Later calls fail with pcp.ErrNoContext.
func (g *Group) Close() error {
	g.Clear()
	if g.src == nil {
		return nil
	}
	err := g.src.Close()
	g.src = nil
	return err
}

// extendError wraps an extension's failure with the metric's name.
func extendError(metric string, err error) error {
	return fmt.Errorf("fetchgroup: %s: %w", metric, err)
}
