package pmcd

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmda"
)

// Entry is the pmcd.conf entry point of pmcd's own agent.
const Entry = "pmcd_init"

// NumRegisters is how many registers pmcd.control.register has.
const NumRegisters = 16

// PDUTypes is how many PDU types pmcd counts, ERROR to DESCS.
const PDUTypes = int(pdu.TypeDescs-pdu.TypeError) + 1

// pmcd -T's bits, as PCP numbers them, and its trace buffer size.
const (
	TraceConn  = 1
	TracePDU   = 2
	TraceNoBuf = 256
	traceBufs  = 20
)

// Controls are the counters and settings of a pmcd that its agent
// reports and changes, shared between the two as PCP's pmcd shares its
// globals with its agent: pmcd counts and reads them, the agent reports
// them and stores into the settings.
type Controls struct {
	// PDUIn and PDUOut count PDUs by type, less pdu.TypeError.
	PDUIn, PDUOut [PDUTypes]atomic.Uint64
	// Sighups counts re-reads of the configuration, for pmcd.sighups.
	Sighups atomic.Uint64
	// Seqnum counts as PCP's pmcd_seqnum does: one for each agent
	// started, one more for a rescan that found agents dead, one for
	// each store into pmcd.seqnum. pmcd.seqnum is one more, as PCP's
	// pmcd counts from 1.
	Seqnum atomic.Uint32
	// Debug is pmcd.control.debug, Trace pmcd -T's mask.
	Debug, Trace atomic.Int32
	// Registers are pmcd.control.register's.
	Registers [NumRegisters]atomic.Int32
	// Timeout is pmcd.control.timeout once stored (TimeoutSet), which
	// then overrides pmcd's -t.
	Timeout    atomic.Int64 // a time.Duration
	TimeoutSet atomic.Bool
	// Labels are the host's configured labels ($PCP_SYSCONF_DIR/labels,
	// as JSON) as pmcd last checked them for changes, nil when it found
	// none or has not looked: pmcd.labels reports them.
	Labels atomic.Pointer[string]
}

// Server is the pmcd running the agent, as the agent sees it; package
// pmcd's Server provides it. Its methods are safe for concurrent use.
type Server interface {
	// Controls are the counters and settings shared with the agent.
	Controls() *Controls
	// AgentTimeout is how long pmcd waits for an agent.
	AgentTimeout() time.Duration
	// Agents are pmcd.conf's agents in force, in its order or, with
	// byDomain, by domain; the slice is not to be changed.
	Agents(byDomain bool) []Agent
	// NumClients is how many clients are connected; Clients lists them
	// in order of arrival.
	NumClients() int
	Clients() []Client
	// SetWhoami and SetContainer change the whoami and container of the
	// client numbered c (what agents see as a request's "from"), the
	// container also going to the agents that want clients' attributes;
	// both fail with pcp.ErrNotConn for no such client. ClientUID is the
	// user id of a client whose credentials pmcd knows.
	SetWhoami(c pmda.Client, name string) error
	SetContainer(ctx context.Context, c pmda.Client, name string) error
	ClientUID(c pmda.Client) (uid uint32, ok bool)
	// Features are the server features pmcd.feature.* report that
	// depend on how it runs.
	Features() Features
	// Hostname is pmcd -H's name for the host, "" for the host's own.
	Hostname() string
	// TZ is $TZ in pmcd's environment ("" when unset): a ":Area/City"
	// value is pmcd.zoneinfo.
	TZ() string
	// Rescan does what a SIGHUP does, in the background; DumpConnections
	// logs the clients and agents.
	Rescan(ctx context.Context)
	DumpConnections()
	// Logf writes a line to pmcd's log.
	Logf(format string, args ...any)
}

// Agent is one agent of pmcd.conf as pmcd.agent.* report it.
type Agent interface {
	Name() string
	Domain() uint32
	// Type is pmcd.agent.type: 0 in-process, 2 socket, 4 pipe.
	Type() uint32
	// Status is pmcd.agent.status: 0 running, else why it stopped.
	Status() int32
	Alive() bool
	// Fenced reports and SetFenced sets pmcd.agent.fenced: a fenced
	// agent gets no requests.
	Fenced() bool
	SetFenced(bool)
	// Own says whether this is pmcd's own agent, which is never fenced.
	Own() bool
}

// Client is one connected client as pmcd.client.* report it.
type Client interface {
	// Seq numbers clients in order of arrival.
	Seq() int32
	Whoami() string
	Start() time.Time
	Container() string
}

// Features are pmcd.feature.* that depend on how pmcd runs.
type Features struct {
	Local         bool // listening for this host's clients only
	CredsRequired bool // -S, or user and group access rules
	UnixSocket    bool // a Unix socket is being served
}
