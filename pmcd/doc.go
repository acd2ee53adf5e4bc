// Package pmcd is the Performance Metrics Collection Daemon: it accepts PCP
// clients, greets them with PCP 6's handshake, and answers their requests
// from its namespace and its agents, as PCP 6.0.3's pmcd does.
//
// Agents are named by a pmcd.conf (ParseConf, LoadConf): pipe agents are
// started as child processes talking PDUs on their stdin and stdout;
// socket agents are reached on a TCP or Unix socket, started first when
// the line has a command; "dso" lines name Go agents registered with
// RegisterDSO by their entry point, which run inside pmcd and are called
// through the pmda.Agent method set. The entry point "pmcd_init" is
// pmcd's own agent (domain 2): every pmcd.* metric of PCP's pmcd agent,
// from this daemon's state (package agents/pmcd, built by pmcd for
// each Server).
//
// Access control: the [access] section (and pmcd.conf.access) is parsed
// with PCP's grammar and messages and enforced with PCP's rules (package access):
// hosts by name, address, wildcard, "unix:", "local:" and "*", users and
// groups by the credentials of Unix-socket clients (SO_PEERCRED), the
// operations fetch and store, "all except", and connection limits. A
// refused connection gets PM_ERR_PERMISSION or PM_ERR_CONNLIMIT in place
// of the greeting; a refused request gets PM_ERR_PERMISSION.
//
// Each request goes to the agent owning the domain of its PMID, instance
// domain or name, with the client's number as the PDU's "from": a fetch is
// split by domain and the agents are asked at the same time, each within
// Server.AgentTimeout, the answers merged in request order; a client's
// instance profile is sent to an agent before a fetch whenever the agent
// last saw another one; DESC_IDS becomes one descriptor request per
// metric; names below a dynamic subtree root are asked of its agent; and
// agents hear PM_ERR_NOTCONN when a client goes. pmcd supplies context
// labels itself, with the user and group ids of Unix-socket clients, whose
// credentials also go to the agents that ask for them as ATTR PDUs.
//
// An agent that dies, hangs past the timeout, sends a malformed or
// unexpected PDU, or (in-process) panics is closed and marked dead, as
// PCP's pmcd does: the request that finds it so fails with PM_ERR_IPC
// (PM_ERR_TIMEOUT when it hung; PM_ERR_NOAGENT for a hung agent's values
// when a fetch waited on several daemons), and its domain answers
// PM_ERR_NOAGENT from then on, while the daemon and the other agents
// carry on. A daemon whose process ends is found dead, as by PCP's
// pmcd, by the next request to it (whose values are then -EPIPE) or by
// the next rescan. With Server.AutoRestart, a dead agent is started
// again at once (at most once a minute), as PCP's pmcd does by default,
// and the requests after the one that found it wait for it; RestartDead
// does it on demand. Clients are told with their next fetch of agents
// added, restarted and dropped and of changed labels, as PCP's pmcd
// tells them (notices.go), and of agents' own names and labels changes
// (statechange.go). An in-process agent dropped, replaced or stopped is
// closed (pmda.Agent.Close), which ends what it holds. A client PDU that cannot be framed ends
// that client's connection; a whole one that cannot be decoded gets
// PM_ERR_IPC.
//
// Reconfiguration: Reload puts a new pmcd.conf and namespace in force
// while serving (unchanged live agents kept, others started or stopped,
// every client judged again by the new access control); Rescan is PCP's
// SIGHUP, reading the files again only when they changed.
//
// An agent that answers PM_ERR_PMDANOTREADY, or is started with
// "notready" in pmcd.conf, gets no requests until it sends
// PM_ERR_PMDAREADY; meanwhile its domain answers PM_ERR_AGAIN.
//
// Not done: TLS and SASL authentication (a client that must authenticate
// is offered PCP's mechanisms and then refused), containers beyond
// forwarding their names, PDU tracing.
//
// Concurrency: every client has a goroutine; an agent serves one request
// at a time under its own lock, so different agents work in parallel. The
// agents, namespace and access control in force form one immutable state
// that Reload replaces atomically; a request works with the state it found
// when it began. Server's methods are safe for concurrent use once Serve
// has started.
package pmcd
