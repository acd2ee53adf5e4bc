// Package pmapi is the client side of PCP's Performance Metrics API:
// contexts that answer the PMAPI's questions about names, metadata,
// instances, help text and labels, fetch values and store new ones,
// returning what libpcp 6.0.3's calls return.
//
// For values by name, fetchgroup.Values is the short path over any
// context here, and package fetchgroup's groups fetch the same metrics
// again and again with rates and unit conversions:
//
//	c, err := pmapi.NewHostContext(ctx, "localhost")
//	...
//	defer c.Close()
//	load, err := fetchgroup.Values[float64](ctx, c, "kernel.all.load")
//	...
//	for _, in := range load[0].Instances {
//		fmt.Printf("%s: %.2f\n", in.Name, in.Value)
//	}
//
// The methods below are the PMAPI's own calls, for what those do not
// cover: names and metadata, instance domains, help text, labels,
// profiles, stores and archives' time modes.
//
// # Contexts
//
// Source is the method set every kind of context has; tools and
// libraries take a Source and so work on any of them:
//
//   - HostContext is PM_CONTEXT_HOST, a connection to a pmcd (NewHostContext),
//     speaking the PDUs libpcp speaks.
//   - PM_CONTEXT_LOCAL, agents run in this process with no pmcd, is
//     package pmapi/local's Context, kept there so that a client of
//     hosts and archives does not link the agent framework (pmda).
//   - ArchiveContext is PM_CONTEXT_ARCHIVE (NewArchiveContext): one
//     archive, a list or a directory of them, read with package archive;
//     SetMode moves through them forwards, backwards or interpolating as
//     libpcp's interp.c does, and the archive forms of the instance
//     services (GetInDomArchive, ...) and FetchArchive are methods.
//
// Derived metrics (package derive) wrap a Source in another. The methods
// are named after the PMAPI calls without the "pm" prefix (LookupName for
// pmLookupName, Fetch for pmFetch and so on) and keep their semantics,
// including partial success where the C calls have it; failures are
// errors wrapping the PCP codes (pcp.ErrName, pcp.ErrPMID, ...), so
// errors.Is works through the context each method adds.
//
// # Concurrency
//
// Contexts are safe for concurrent use by several goroutines. A
// HostContext holds its lock for a whole request and reply, so exchanges
// on the connection never interleave; calls from different goroutines are
// served one after the other. Every call that may talk to pmcd takes a
// context.Context whose deadline and cancellation are honoured besides
// the request timeout (PMCD_REQUEST_TIMEOUT). A request whose wait runs
// out before any of its reply has come fails with pcp.ErrTimeout and
// leaves the connection up, as libpcp's does; the late reply is read and
// dropped before the next one, so each request still gets its own. Any
// other failure of a host connection (a reply cut short, a cancelled
// exchange, pmcd going away) closes it, since the reply stream can no
// longer be trusted; later calls fail with pcp.ErrIPC until Reconnect
// succeeds. Connecting waits as libpcp's connect does
// (PMCD_CONNECT_TIMEOUT): a connect that has finished when first looked
// at, as on loopback, is taken however short the wait.
package pmapi
