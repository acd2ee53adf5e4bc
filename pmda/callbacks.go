package pmda

import (
	"context"
	"errors"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// ErrNoValue is what a Fetcher returns for an instance that has no value
// at the moment, PMDA_FETCH_NOVALUES in PCP: the instance is left out of the
// result silently. A metric all of whose instances are left out has no values
// (numval 0).
var ErrNoValue = errors.New("pmda: no value")

// Fetcher supplies values, one metric and instance at a time, as the fetch
// callback of libpcp_pmda's pmdaFetch does. inst is pcp.InstNull for a metric
// without an instance domain, else one instance of the metric's domain that
// the current profile selects.
//
// The value is read from the Atom field that matches m.Desc.Type: L for
// pcp.Type32, UL, LL, ULL, F, D, CP for strings, VBP for aggregates. Errors
// are PCP codes: pcp.ErrPMID or pcp.ErrInst for what the Fetcher does not
// know, pcp.ErrAppVersion for a metric unsupported in this version,
// pcp.ErrValue for a missing value, ErrNoValue to leave the instance out.
// When every instance fails, the metric's value set carries the last error.
type Fetcher interface {
	Fetch(ctx context.Context, m *Metric, inst int32) (pcp.Atom, error)
}

// FetchFunc adapts a function to Fetcher.
type FetchFunc func(ctx context.Context, m *Metric, inst int32) (pcp.Atom, error)

// Fetch calls f.
func (f FetchFunc) Fetch(ctx context.Context, m *Metric, inst int32) (pcp.Atom, error) {
	return f(ctx, m, inst)
}

// Refresher is implemented by a Fetcher that gathers its data once per
// request, before the per-value calls, like the refresh step PCP agents
// run at the start of their fetch. pmids are the metrics asked for; the
// slice is only valid during the call. An error fails the whole fetch.
type Refresher interface {
	Refresh(ctx context.Context, pmids []pcp.PMID) error
}

// FetchEnder is implemented by a Refresher that needs to know when the
// request it refreshed for is over. FetchEnd is called once for each
// Refresh that returned nil, after the request's last Fetch or FetchSet
// call, whatever became of the request (an error, a cancelled context, a
// panic in the agent's code). An agent can so hold its own lock from
// Refresh to FetchEnd rather than take it again for every metric.
type FetchEnder interface {
	FetchEnd()
}

// Storer is implemented by agents whose metrics can be changed by pmstore.
// Store is called once per value set of a store request, in order, and the
// first error ends the request; with no Storer every store is refused with
// pcp.ErrPermission, as libpcp_pmda's default does. The set and its values
// are only valid during the call.
type Storer interface {
	Store(ctx context.Context, c Client, set *pcp.ValueSet) error
}

// ContextEnder is implemented by agents that keep per-client state: pmcd
// says when a client's context ends, and EndContext is called with its number.
type ContextEnder interface {
	EndContext(c Client)
}

// Attributer is implemented by agents that want client attributes (the
// user and group of a client on a Unix socket, a container name), which pmcd
// forwards when the agent asked for them at the handshake (Config.Flags).
// Errors are only logged: pmcd expects no answer.
type Attributer interface {
	Attribute(c Client, key pdu.AttrKey, value []byte) error
}

// Client is the number pmcd gives a client context, the "from" of its
// requests to the agent. Agents use it to keep per-client state.
type Client int32
