// Package trace is PCP's trace agent (pmdatrace, domain 10): programs
// instrumented with libpcp_trace, or with gopcp's trace package, connect
// to it over TCP (port 4323 unless told otherwise) and send transactions,
// points, observations and counters; the agent serves them as
// trace.transact.*, trace.point.*, trace.observe.* and trace.counter.*,
// with trace.control.* for its settings.
//
// What it serves follows PCP 6.0.3's pmdatrace: the same names, PMIDs,
// descriptors and instance domains (one per trace type, instances named
// by tag and numbered from 1 in order of arrival, numbers kept across a
// reset); counts and totals since start or reset; rates, mean, least and
// greatest transaction times over a rolling window of -N buckets of
// -T/-N seconds each, computed from the buckets before the working one
// and recomputed once per interval, a tag without data in the window
// having no value. The help text is our own (PCP's agent has none until
// installed).
//
// Connections are bounded (Options.MaxClients), as are the tags
// (Options.MaxTags), the window's records (Options.MaxBucketEntries) and
// every PDU (the protocol's 272 bytes); a
// malformed PDU (a bad length, tag length, version or type), a PDU other
// than DATA, or a datum the agent cannot keep ends that connection only,
// as pmdatrace's does, logged at a bounded rate. Access control is
// pmdatrace's -A: "allow:HOST[:MAXCONN]" and "disallow:HOST", with PCP's
// host matching (package access); a refused program is told why
// (trace.ErrPermission, trace.ErrConnLimit) in the welcome.
//
// New builds the agent; Serve runs its listener and its interval timer
// until the context ends. cmd/pmdatrace is the daemon pmcd runs on a
// pipe; agents/all registers it in-process as "trace_init".
package trace
