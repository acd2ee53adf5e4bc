// Package trace instruments Go programs through PCP's trace agent
// (pmdatrace, domain 10): it speaks the protocol of PCP's libpcp_trace
// over TCP, PDU for PDU, so that transactions, points, observations and
// counters of a Go program appear as trace.transact.*, trace.point.*,
// trace.observe.* and trace.counter.* beside those of C programs.
//
// A Client is one connection's worth of state, safe for concurrent use:
//
//	opts, err := trace.EnvOptions(os.LookupEnv) // PCP_TRACE_*, at the program's edge
//	c, err := trace.New(opts)
//	defer c.Close()
//	tx := c.Start("checkout")      // a transaction; End sends its elapsed time
//	...
//	err = tx.End(ctx)
//	c.Point(ctx, "cache-miss")
//	c.Observe(ctx, "queue-depth", 17)
//
// The libpcp_trace calls are there too, with their rules (one transaction
// in progress per tag, ErrInProgress and ErrNoProgress): Begin, End, Abort,
// Point, Observe, Counter, and SetState for pmtracestate's flags.
//
// As libpcp_trace, the client never stops the application for want of an
// agent: the first call connects (each attempt at most Options.ConnectTimeout
// or ConnectWait, whichever is less) and
// reports a failure; after that a lost agent is tried again at most once per
// back-off step (Options.Reconnect, 5, 10, 20, 40 then 80 seconds), data
// meanwhile dropped. In the synchronous protocol (the default) each datum
// waits for the agent's acknowledgement, at most Options.RequestTimeout;
// in the asynchronous one (Options.Async, what pmtrace uses) nothing
// waits. Contexts bound every wait further.
//
// The wire format (pdu.go) is shared with the agent in agents/trace:
// big-endian, a 12-byte header (length, type, sender's pid), ACK PDUs of
// one 32-bit value and DATA PDUs of a bit-packed word, a double and a
// NUL-terminated tag padded to 4 bytes with '~', byte-identical to
// libpcp_trace's (checked against it in this package's tests).
package trace
