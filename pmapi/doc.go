// Package pmapi is the client side of PCP's Performance Metrics API: a
// Context connected to a pmcd that answers the PMAPI's questions about
// names, metadata, instances, help text and labels, fetches values and
// stores new ones, speaking the PDUs libpcp 6.0.3 speaks and returning
// what libpcp's calls return.
//
// A Context corresponds to one PM_CONTEXT_HOST context of libpcp
// (pmNewContext with a host specification). Its methods are named after
// the PMAPI calls without the "pm" prefix (LookupName for pmLookupName,
// Fetch for pmFetch and so on) and keep their semantics, including partial
// success where the C calls have it; failures are errors wrapping the PCP
// codes (pcp.ErrName, pcp.ErrPMID, ...), so errors.Is works through the
// context each method adds.
//
// # Concurrency
//
// A Context is safe for concurrent use by several goroutines. Each call
// holds the Context's lock for its whole request and reply, so exchanges
// on the connection never interleave; calls from different goroutines are
// served one after the other. Every call that talks to pmcd takes a
// context.Context whose deadline and cancellation are honoured besides the
// request timeout (PMCD_REQUEST_TIMEOUT). A failure of the connection
// itself (a timeout, a cancelled exchange, pmcd going away) closes it,
// since the reply stream can no longer be trusted; later calls fail with
// pcp.ErrIPC until Reconnect succeeds.
package pmapi
