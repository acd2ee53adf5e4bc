package access

import (
	"net"
	"sync"
	"syscall"

	"github.com/gopcp/gopcp/pcp"
)

// Control is an [access] section in force (pmcd.conf's, or pmlogger's
// host rules): which hosts, users and groups may do which operations, and
// how many connections each may hold, with PCP's rules.
//
// Hosts: entries are kept from the most specific (an exact address) to
// the most general (".*", ":*"); a client's permissions are those of
// every entry matching its address, the more specific overriding the more
// general for the operations they name, and its connection limit is the
// most specific match's. A loopback client is judged by the addresses of
// this host's name, as "localhost" in pmcd.conf is, and a client of the
// Unix socket only by "unix:", "local:" and "*". A client no entry
// matches may do everything.
//
// Users and groups: when any statement names them, a client must present
// credentials (only Unix-socket clients can), and is judged by every user
// and group entry that names its user id or group id (or a group it or
// its user belongs to); one that none names gets the "*" entry, which
// denies everything unless a statement allows it.
//
// A nil *Control allows everything. Control is safe for concurrent use.
type Control struct {
	mu     sync.Mutex
	hosts  []*hostEntry    // by level, most specific first
	users  []*acctEntry    // users[0] is the "*" entry, when there are users
	groups []*acctEntry    // likewise
	myAddr func() []net.IP // this host's addresses, for loopback clients
	// lookup resolves the host names of statements.
	lookup func(name string) ([]net.IP, error)
	// notes are the complaints PCP logs while building the lists, such
	// as permission clashes, for the parser to report.
	notes []string
	// warnings are the lesser complaints PCP logs at its Warning
	// level, such as a Unix socket pattern's ignored path.
	warnings []string
	// ops is every operation the server knows (Options.Ops); zero
	// means pmcd's, OpAll.
	ops int
}

// hostEntry is one host, address or wildcard with its permissions.
type hostEntry struct {
	spec    string
	unix    bool   // matches clients of the Unix socket
	addr    net.IP // masked address, 4 or 16 bytes
	mask    net.IPMask
	level   int // 0 exact, up to 4 (inet) or 8 (IPv6) for wildcards; 1 for unix
	specOps int // the operations the entry speaks of
	denyOps int // which of those it denies
	maxCons int // 0 unlimited
	curCons int
}

// acctEntry is one user or group with its permissions. For a user, ids
// are the groups it belongs to; for a group, the users in it.
type acctEntry struct {
	name    string
	id      uint32
	ids     map[uint32]bool
	order   []uint32 // ids in the order libpcp lists them in its dump
	specOps int
	denyOps int
	maxCons int
	curCons int
}

// HasAccounts reports whether users or groups are controlled, which
// obliges clients to give credentials.
func (a *Control) HasAccounts() bool {
	if a == nil {
		return false
	}
	return len(a.users) > 0 || len(a.groups) > 0
}

// merge folds spec into an existing entry, refusing a contradiction as
// PCP does: the limits or the overlapping operations must agree.
func mergePerms(specOps, denyOps, maxCons *int, s permSpec) bool {
	if (*maxCons != 0 && s.maxCons != 0 && *maxCons != s.maxCons) ||
		(*specOps&s.spec != 0 && (*specOps&*denyOps)^(s.spec&s.deny) != 0) {
		return false
	}
	*specOps |= s.spec
	*denyOps |= s.spec & s.deny
	if s.maxCons != 0 {
		*maxCons = s.maxCons
	}
	return true
}

var errInval = pcp.Error(-int32(syscall.EINVAL))

// addrsOf is the list of addresses a client is judged by.
func (a *Control) addrsOf(c ClientID) []net.IP {
	if c.Unix {
		return []net.IP{nil}
	}
	if c.IP.IsLoopback() && a.myAddr != nil {
		return a.myAddr()
	}
	return []net.IP{c.IP}
}

func (e *hostEntry) matches(ip net.IP, unix bool) bool {
	if unix || e.unix {
		return unix && e.unix
	}
	if ip4 := ip.To4(); ip4 != nil {
		ip = ip4
	}
	if len(ip) != len(e.addr) {
		return false
	}
	return ip.Mask(e.mask).Equal(e.addr)
}

// AdmitHost decides whether a new client may connect and which operations
// it is denied, counting the connection against the limits of the
// entries it matches. It fails with pcp.ErrPermission when every
// operation is denied and pcp.ErrConnLimit at a limit; a client admitted
// must be released with ReleaseHost when it goes.
func (a *Control) AdmitHost(c ClientID) (deny int, err error) {
	if a == nil {
		return 0, nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.hosts) == 0 {
		return 0, nil
	}
	addrs := a.addrsOf(c)
	if len(addrs) == 0 {
		return a.all(), pcp.ErrPermission
	}
	for _, ip := range addrs {
		var last *hostEntry
		for i := len(a.hosts) - 1; i >= 0; i-- {
			e := a.hosts[i]
			if e.matches(ip, c.Unix) {
				deny = deny&^e.specOps | e.denyOps
				last = e
			}
		}
		if deny == a.all() {
			return a.all(), pcp.ErrPermission
		}
		if last != nil && last.maxCons > 0 && last.curCons >= last.maxCons {
			return a.all(), pcp.ErrConnLimit
		}
		for _, e := range a.hosts {
			if e.maxCons > 0 && e.matches(ip, c.Unix) {
				e.curCons++
			}
		}
	}
	return deny, nil
}

// ReleaseHost gives back the connection AdmitHost counted.
func (a *Control) ReleaseHost(c ClientID) {
	if a == nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.hosts) == 0 {
		return
	}
	for _, ip := range a.addrsOf(c) {
		for _, e := range a.hosts {
			if e.maxCons > 0 && e.matches(ip, c.Unix) && e.curCons > 0 {
				e.curCons--
			}
		}
	}
}

// AdmitAccount adds the user and group controls to the host's verdict
// deny once the client has said who it is. ok reports whether the client
// counted against account limits (it then needs ReleaseAccount).
func (a *Control) AdmitAccount(c ClientID, deny int) (newDeny int, counted bool, err error) {
	if !a.HasAccounts() {
		return deny, false, nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if !c.HasCreds {
		return OpAll, false, pcp.ErrPermission
	}
	if deny, err = checkAccounts(a.users, c.UID, c.GID, deny); err != nil {
		return deny, false, err
	}
	if deny, err = checkAccounts(a.groups, c.GID, c.UID, deny); err != nil {
		return deny, false, err
	}
	if deny == OpAll {
		return deny, false, pcp.ErrPermission
	}
	a.countAccount(c, +1)
	return deny, true, nil
}

// checkAccounts applies a user (or group) list to the account with id
// (the user or group itself) and other (the group or user that may appear
// among an entry's members).
func checkAccounts(list []*acctEntry, id, other uint32, deny int) (int, error) {
	if len(list) == 0 {
		return deny, nil
	}
	matched := false
	for _, e := range list[1:] {
		if e.id == id || e.ids[other] {
			if e.maxCons > 0 && e.curCons >= e.maxCons {
				return OpAll, pcp.ErrConnLimit
			}
			deny |= e.denyOps
			matched = true
		}
	}
	if !matched {
		e := list[0]
		if e.maxCons > 0 && e.curCons >= e.maxCons {
			return OpAll, pcp.ErrConnLimit
		}
		deny |= e.denyOps
	}
	return deny, nil
}

// countAccount moves the connection counts of the client's user and
// group entries, and of the groups of its user and users of its group,
// by dir. a.mu is held.
func (a *Control) countAccount(c ClientID, dir int) {
	bump := func(e *acctEntry) {
		if e.maxCons > 0 {
			e.curCons = max(0, e.curCons+dir)
		}
	}
	for _, u := range a.users[min(1, len(a.users)):] {
		if u.id != c.UID {
			continue
		}
		bump(u)
		for _, g := range a.groups[min(1, len(a.groups)):] {
			if u.ids[g.id] {
				bump(g)
			}
		}
	}
	for _, g := range a.groups[min(1, len(a.groups)):] {
		if g.id != c.GID {
			continue
		}
		bump(g)
		for _, u := range a.users[min(1, len(a.users)):] {
			if g.ids[u.id] {
				bump(u)
			}
		}
	}
}

// ReleaseAccount gives back what AdmitAccount counted.
func (a *Control) ReleaseAccount(c ClientID) {
	if !a.HasAccounts() {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.countAccount(c, -1)
}
