package access

import "net"

// Options are the settings of a Control.
type Options struct {
	// Ops is every operation the server knows, as bits: a client denied
	// every one of them is refused. Zero means pmcd's, OpAll; pmlogger's
	// [access] section has its own (advisory, mandatory and enquire),
	// decided by libpcp's same code.
	Ops int
	// Lookup resolves a host name of a statement; nil is the system's
	// resolver, at most 10 seconds a name.
	Lookup func(name string) ([]net.IP, error)
	// MyAddrs are this host's addresses, which stand for "localhost" and
	// for loopback clients; nil is the addresses of this host's name,
	// resolved when first needed (judging a loopback client must not wait
	// on a name service each time).
	MyAddrs func() []net.IP
}

// New returns empty access controls, which allow everything until
// statements are added (Parse, AddHost); AdmitHost and AdmitAccount
// judge clients.
func New(o Options) *Control {
	a := &Control{ops: o.Ops, lookup: o.Lookup, myAddr: o.MyAddrs}
	if a.myAddr == nil {
		a.myAddr = HostAddrs(o.Lookup)
	}
	return a
}

// HostAddrs returns the addresses of this host's name, looked up with
// lookup (nil: the system's resolver) on the first call only, for
// Options.MyAddrs.
func HostAddrs(lookup func(name string) ([]net.IP, error)) func() []net.IP {
	if lookup == nil {
		lookup = func(name string) ([]net.IP, error) { return lookupHost(name) }
	}
	return onceAddrs(func() []net.IP { return myHostAddrs(lookup) })
}

// NotePrefix starts the messages Parse returns that libpcp gives through
// pmNotifyErr at its Error level (a host or account it cannot add, a
// clash with an earlier statement), which a caller writes with
// pmNotifyErr's time and process; the others are written as they are.
const NotePrefix = "Error: "

// Parse adds the statements of an [access] section in pmcd.conf's
// grammar: lines are its text a line at a time, comments removed, first
// the number of the first line and last the line PCP's messages name at
// the end of the text; source names the text in messages ("pmcd" for
// pmcd.conf, "access" for pmcd.conf.access). It returns PCP's messages,
// errors and warnings in order, and whether the section is accepted. A
// bad statement is reported and skipped, as PCP's pmcd does, and makes
// the section fail as a whole.
func (a *Control) Parse(lines []string, first, last int, source string) (msgs []string, ok bool) {
	p := &accessParser{toks: tokenizeAccess(lines, first), source: source, lastLine: last, acl: a}
	p.parse()
	return p.msgs, !p.failed
}

// Empty reports whether no statement took effect, so that everything is
// allowed.
func (a *Control) Empty() bool { return a == nil || len(a.hosts) == 0 && !a.HasAccounts() }

// AddHost adds one host statement: name is a host name, address,
// wildcard ("192.168.*", ":*", "*"), "localhost", "local:" or "unix:";
// specOps are the operations the statement speaks of and denyOps those
// of them it denies. A statement contradicting an earlier one for the
// same host is ignored and noted (Notes), as PCP does; an unknown host or
// a bad wildcard is an error (errno values as libpcp's).
func (a *Control) AddHost(name string, specOps, denyOps int) error {
	return a.addHost(name, permSpec{spec: specOps, deny: denyOps})
}

// AddHostLimit is AddHost with a limit of maxCons connections at once
// from the hosts the statement matches (0: unlimited), as PCP's
// __pmAccAddHost takes it for agents that have no [access] grammar
// (pmdatrace's -A allow:host:N).
func (a *Control) AddHostLimit(name string, specOps, denyOps, maxCons int) error {
	return a.addHost(name, permSpec{spec: specOps, deny: denyOps, maxCons: maxCons})
}

// Notes returns and forgets the complaints made while adding statements.
func (a *Control) Notes() []string {
	n := a.notes
	a.notes = nil
	return n
}

// Warnings returns and forgets the warnings made while adding
// statements: libpcp gives them at its Warning level, where Notes are at
// its Error level.
func (a *Control) Warnings() []string {
	w := a.warnings
	a.warnings = nil
	return w
}

func (a *Control) all() int {
	if a.ops != 0 {
		return a.ops
	}
	return OpAll
}
