package pmda

import (
	"cmp"
	"context"
	"slices"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// The interfaces below let an agent whose metrics, instances, names or
// labels change while it runs answer requests itself, as PCP agents such
// as pmdasample replace libpcp_pmda's table-driven callbacks with their
// own. Each is optional: the Agent checks whether its Fetcher implements
// it and otherwise answers from the tables given to New.

// RequestHook is implemented by a Fetcher that wants to see every request
// from a client before it is answered: a fetch (ident 0), descriptor
// (ident a PMID), instance (an InDom), text or label request (the request's
// ident) and store (ident 0), each with the PDU type pmcd sent. A non-nil
// error is the request's answer, so an agent can refuse a request or count
// it per client.
type RequestHook interface {
	BeginRequest(ctx context.Context, c Client, t pdu.Type, ident uint32) error
}

// Readier is implemented by a Fetcher that can be busy: when a request
// is answered with pcp.ErrPMDANotReady, the Dispatcher calls AwaitReady,
// which returns once the agent can work again, and then tells pmcd with
// an ERROR PDU holding pcp.ErrPMDAReady, as libpcp_pmda's agents do.
// Requests wait meanwhile; pmcd sends none to an agent it knows is busy.
type Readier interface {
	AwaitReady(ctx context.Context)
}

// awaitReady waits for a Readier and says it is ready again.
func (d *Dispatcher) awaitReady(ctx context.Context) error {
	r, ok := d.a.fetcher.(Readier)
	if !ok {
		return nil
	}
	r.AwaitReady(ctx)
	if err := ctx.Err(); err != nil {
		return err
	}
	return d.w.WriteMessage(ctx, &pdu.Error{Code: int32(pcp.ErrPMDAReady)}, 0)
}

// ProfileHook is implemented by a Fetcher that wants to know when a
// client's instance profile arrives (PCP's agents count it as a request
// received).
type ProfileHook interface {
	ProfileArrived(c Client)
}

// ProfileFrom is Profile for a profile that client c sent; it tells a
// ProfileHook first.
func (a *Agent) ProfileFrom(c Client, m *pdu.Profile) {
	if h, ok := a.fetcher.(ProfileHook); ok {
		h.ProfileArrived(c)
	}
	a.Profile(m)
}

// InstanceLister is implemented by a Fetcher whose instance domains change:
// Instances returns the current members of indom, in the order fetches
// visit them, or pcp.ErrInDom for a domain the agent does not have. The
// Agent uses it in place of the InDom tables for fetches, instance
// requests and instance labels. The slice may be the agent's own; the
// Agent does not keep or change it.
type InstanceLister interface {
	Instances(ctx context.Context, c Client, indom pcp.InDom) ([]Instance, error)
}

// InstanceFinder is implemented by a Fetcher that looks single instances
// up its own way for instance requests: by number (name "") or by name
// (inst pcp.InstNull), answering pcp.ErrInst for none. Without it the
// Agent matches as libpcp_pmda's pmdaInstance does.
type InstanceFinder interface {
	FindInstance(ctx context.Context, c Client, indom pcp.InDom, inst int32, name string) (Instance, error)
}

// Describer is implemented by a Fetcher whose descriptors change or
// depend on the agent's state: Desc answers every descriptor request,
// with pcp.ErrPMID for a PMID it does not know.
type Describer interface {
	Desc(ctx context.Context, c Client, pmid pcp.PMID) (pcp.Desc, error)
}

// Labeler is implemented by a Fetcher that computes label sets itself.
// LabelSets answers like Agent.Label; handled false falls back to the
// tables. NewLabelSet builds the sets.
type Labeler interface {
	LabelSets(ctx context.Context, c Client, ident uint32, level uint8) (sets []pcp.LabelSet, handled bool, err error)
}

// Namer is implemented by a Fetcher that serves a dynamic part of the
// namespace itself, such as names that appear and disappear; the methods
// answer as the Agent's namespace methods of the same names do.
type Namer interface {
	LookupName(ctx context.Context, c Client, name string) (pcp.PMID, error)
	Names(ctx context.Context, c Client, pmid pcp.PMID) ([]string, error)
	Children(ctx context.Context, c Client, name string) (names []string, status []int32, err error)
	Traverse(ctx context.Context, c Client, name string) ([]string, error)
}

// SetFetcher is implemented by a Fetcher that builds whole value sets
// itself, choosing which instances get values (even instances outside the
// domain) and the type each value is packed as. FetchSet calls add once per
// value, in order; add returns an error only for a value that cannot be
// packed. Returning an error gives the set that error as its count of
// values (numval), with any values added dropped; ErrNoValue gives zero
// values. To fail the whole request, return FailRequest(err).
type SetFetcher interface {
	FetchSet(ctx context.Context, c Client, pmid pcp.PMID, p ProfileView, add func(inst int32, t pcp.Type, a *pcp.Atom) error) error
}

// ProfileView is the instance profile a fetch runs under, as a SetFetcher
// sees it.
type ProfileView struct{ p *profile }

// Selects reports whether the profile lets inst of indom into the fetch.
func (v ProfileView) Selects(indom pcp.InDom, inst int32) bool { return v.p.selects(indom, inst) }

// Explicit reports whether the profile names the instances of indom to
// fetch (everything excluded but a list), which is what PCP means by an
// explicit instance profile (PM_ERR_PROFILE when it is needed and absent).
func (v ProfileView) Explicit(indom pcp.InDom) bool {
	i, ok := slices.BinarySearchFunc(v.p.indoms, indom, func(d pdu.InDomProfile, x pcp.InDom) int { return cmp.Compare(d.InDom, x) })
	if !ok {
		return false
	}
	d := &v.p.indoms[i]
	return d.State == pdu.ProfileExclude && len(d.Insts) > 0
}

// requestFailure marks an error that fails a whole fetch request.
type requestFailure struct{ err error }

func (f requestFailure) Error() string { return f.err.Error() }
func (f requestFailure) Unwrap() error { return f.err }

// FailRequest wraps err so that, returned from SetFetcher.FetchSet, it
// fails the whole fetch request rather than one value set.
func FailRequest(err error) error { return requestFailure{err} }

// NewLabelSet encodes labels as one label set for inst at level (one of
// pcp.LabelDomain ... pcp.LabelInstances, possibly with pcp.LabelOptional),
// sorted by name as PCP keeps them.
func NewLabelSet(inst int32, level uint8, labels []Label) (pcp.LabelSet, error) {
	return labelSet(inst, level, labels)
}

// begin runs the RequestHook, if any.
func (a *Agent) begin(ctx context.Context, c Client, t pdu.Type, ident uint32) error {
	if h, ok := a.fetcher.(RequestHook); ok {
		return h.BeginRequest(ctx, c, t, ident)
	}
	return nil
}

// instances returns the members of indom: the InstanceLister's, else the
// table's. An unknown domain is pcp.ErrInDom.
func (a *Agent) instances(ctx context.Context, c Client, indom pcp.InDom) ([]Instance, error) {
	if l, ok := a.fetcher.(InstanceLister); ok {
		return l.Instances(ctx, c, indom)
	}
	d := a.indoms[indom]
	if d == nil {
		return nil, pcp.ErrInDom
	}
	return d.Instances, nil
}
