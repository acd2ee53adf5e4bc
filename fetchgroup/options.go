package fetchgroup

// Scale words with a meaning of their own; any other non-empty Scale is
// a units expression (see the package documentation).
const (
	// Rate asks for a rate whatever the metric's semantics.
	Rate = "rate"
	// Instant asks for the value as it is, never a rate, even for a
	// counter.
	Instant = "instant"
)

// ItemOptions are ExtendItem's choices; nil, like the zero value, asks
// for a metric without an instance domain in its own units, counters as
// rates.
//
// The Extend functions take their choices beyond the metric's name as a
// pointer to an options struct, nil meaning none, in the manner of
// slog.HandlerOptions and database/sql's TxOptions, rather than as
// positional strings or functional options:
//
//   - every choice is named at the call (Instance: "1 minute", Scale:
//     "kbyte"), so an instance can no longer be passed where a scale was
//     meant, the mistake libpcp's three adjacent strings invite;
//   - each Extend function has its own struct, so the compiler rejects a
//     choice that does not apply (an instance for ExtendInDom, which
//     takes them all);
//   - the fields are plain values a caller can build from data, a
//     configuration or a command line, and copy, without a closure per
//     choice.
type ItemOptions struct {
	// Instance names the instance wanted of a metric with an instance
	// domain. It must be set for such a metric and empty for one
	// without (pcp.ErrInDom otherwise).
	Instance string
	// Scale is "" (the metric's units; counters as rates), Rate,
	// Instant or a units expression such as "kbyte" or "count/sec".
	Scale string
}

// InDomOptions are ExtendInDom's choices; nil, like the zero value, asks
// for the metric's own units, counters as rates.
type InDomOptions struct {
	// Scale is as ItemOptions.Scale.
	Scale string
}

// EventOptions are ExtendEvent's choices; nil, like the zero value, asks
// for an event metric without an instance domain and the field in its
// own units.
type EventOptions struct {
	// Instance names the instance of an event metric with an instance
	// domain, as ItemOptions.Instance.
	Instance string
	// Scale rescales the field's units ("" keeps them); event fields
	// have no rates, so Rate, or a scale asking for one, is
	// pcp.ErrConv.
	Scale string
}
