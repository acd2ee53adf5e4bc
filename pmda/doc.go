// Package pmda is the agent library: what a Performance Metrics Domain Agent
// (PMDA) needs to serve its metrics to pmcd, as PCP's libpcp_pmda provides
// for C agents.
//
// An agent author describes the metrics (a Metric per PMID, with descriptor,
// help text and optional labels) and instance domains (an InDom per
// instance domain, with its instances), and supplies a Fetcher that returns
// one value per metric and instance. Further optional interfaces (Refresher,
// Storer, ContextEnder, Attributer, Labeler) add behaviour; an agent that
// does not implement one gets libpcp_pmda's default, such as
// PM_ERR_PERMISSION for every store.
//
// The Agent type answers pmcd's requests through a plain method set (Desc,
// Fetch, Instance, Text, Label, Store, the namespace methods, Profile,
// EndContext, Attribute) and through Handle, the one mapping from a
// decoded request to those methods, which contains panics in the agent's
// code: pmcd calls Handle for an agent running inside it, and so do local
// contexts. Dispatch decodes one PDU, has Handle answer it and encodes the
// reply. Serve is the thin loop that does the agent handshake and then
// dispatches PDUs read from a pipe or socket until pmcd goes away. A PDU
// that frames but does not decode is answered with PM_ERR_IPC (or, as a
// notification, dropped); bytes that cannot be framed end Serve with an
// error wrapping pcp.ErrIPC; nothing pmcd sends makes it panic.
//
// Errors follow PCP: the codes are pcp.Error values (pcp.ErrPMID,
// pcp.ErrInst, pcp.ErrText, ...) and are sent to pmcd as they are, so a
// callback returning pcp.ErrAppVersion makes pmcd's client see exactly
// PM_ERR_APPVERSION. Any other Go error is sent as PM_ERR_GENERIC.
//
// Concurrency: the metric and instance tables are read-only once New has
// built the Agent, so Desc, Instance, Text, Label and the namespace methods
// may be called from any number of goroutines. Fetch and Profile share the
// instance profile and the fetch buffers and take the Agent's lock, so
// concurrent calls are safe but run one after the other. The agent author's
// callbacks (Fetcher, Refresher, Storer, ContextEnder, Attributer) are called
// by Fetch one at a time; the others are called from whichever goroutine
// calls Store, EndContext or Attribute, which with Serve is one goroutine
// per connection. A Dispatcher, like the Reader it is fed from, belongs to
// one goroutine.
package pmda
