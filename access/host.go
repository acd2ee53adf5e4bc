package access

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/user"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gopcp/gopcp/pcp"
)

// lookupHostTimeout bounds the resolution of one host name in [access].
const lookupHostTimeout = 10 * time.Second

// lookupHost resolves a host name of [access] when Options.Lookup is nil.
var lookupHost = func(name string) ([]net.IP, error) {
	ctx, cancel := context.WithTimeout(context.Background(), lookupHostTimeout)
	defer cancel()
	addrs, err := net.DefaultResolver.LookupIPAddr(ctx, name)
	if err != nil {
		return nil, err
	}
	ips := make([]net.IP, len(addrs))
	for i, a := range addrs {
		ips[i] = a.IP
	}
	return ips, nil
}

// myHostAddrs are the addresses of this host's name, which stand for
// "localhost" and for loopback clients, as in PCP.
func myHostAddrs(lookup func(string) ([]net.IP, error)) []net.IP {
	name, err := os.Hostname()
	if err != nil {
		return nil
	}
	if ips, err := lookup(name); err == nil && len(ips) > 0 {
		return ips
	}
	// A host whose name does not resolve (a container, a fresh root with
	// only localhost in /etc/hosts) is known by localhost's addresses, as
	// libpcp's getmyhostid falls back to them.
	ips, _ := lookup("localhost")
	return ips
}

// resolve looks a statement's host name up with the resolver a was made
// with, after reading it as getaddrinfo reads a numeric IPv4 host
// (inetAton): PCP's pmcd never looks "127.1" up as a name.
func (a *Control) resolve(name string) ([]net.IP, error) {
	if ip, ok := inetAton(name); ok {
		return []net.IP{ip}, nil
	}
	if a.lookup != nil {
		return a.lookup(name)
	}
	return lookupHost(name)
}

// onceAddrs resolves the host's addresses on first use only, as PCP's
// pmcd does: judging a loopback client must not wait on a name service.
func onceAddrs(f func() []net.IP) func() []net.IP {
	var once sync.Once
	var ips []net.IP
	return func() []net.IP {
		once.Do(func() { ips = f() })
		return ips
	}
}

// hostSpec is one address pattern a pmcd.conf host name stands for.
type hostSpec struct {
	name  string
	unix  bool
	addr  net.IP
	mask  net.IPMask
	level int
}

var (
	errHostUnreach = pcp.Error(-int32(syscall.EHOSTUNREACH))
	errHostDown    = pcp.Error(-int32(syscall.EHOSTDOWN))
)

// hostSpecs expands a host identifier as PCP does: "*" is every inet,
// IPv6 and Unix-socket client; "unix:" the Unix socket; "local:" the
// Unix socket and localhost; a trailing "*" an address wildcard; anything
// else a name or address, resolved to all its addresses ("localhost" to
// this host's own).
func (a *Control) hostSpecs(name string) ([]hostSpec, error) {
	if name == "*" {
		in, _ := wildcardSpec(".*")
		v6, _ := wildcardSpec(":*")
		return []hostSpec{in, v6, {name: "unix:", unix: true, level: 1}}, nil
	}
	if i := strings.IndexByte(name, '*'); i >= 0 && i != len(name)-1 {
		return nil, errInval
	}
	var specs []hostSpec
	switch {
	case strings.HasPrefix(name, "unix:"):
		a.unixPath(name[len("unix:"):])
		return []hostSpec{{name: "unix:", unix: true, level: 1}}, nil
	case strings.HasPrefix(name, "local:"):
		a.unixPath(name[len("local:"):])
		specs = append(specs, hostSpec{name: "unix:", unix: true, level: 1})
		name = "localhost"
	case strings.HasSuffix(name, "*"):
		s, err := wildcardSpec(name)
		if err != nil {
			return nil, err
		}
		return []hostSpec{s}, nil
	}
	realname := name
	if strings.EqualFold(name, "localhost") {
		// "localhost" stands for this host's name, as in libpcp: with no
		// address for the name nor for localhost the host is down (even
		// for "local:"); with the name alone unresolved it is unreachable.
		if len(a.myAddr()) == 0 {
			return nil, errHostDown
		}
		realname, _ = os.Hostname()
	}
	ips, err := a.resolve(realname)
	if err != nil || len(ips) == 0 {
		a.notes = append(a.notes, fmt.Sprintf("__pmGetAddrInfo(%s), %s", realname, lookupErrorText(err)))
		if len(specs) > 0 {
			// "local:" keeps its Unix socket part.
			return specs, nil
		}
		return nil, errHostUnreach
	}
	seen := map[string]bool{}
	for _, ip := range ips {
		if ip4 := ip.To4(); ip4 != nil {
			ip = ip4
		}
		if seen[string(ip)] {
			continue
		}
		seen[string(ip)] = true
		specs = append(specs, hostSpec{name: name, addr: ip, mask: net.CIDRMask(len(ip)*8, len(ip)*8)})
	}
	return specs, nil
}

// unixPath warns, as libpcp does, that a Unix socket pattern matches
// every Unix socket client whatever path it names: only slashes and a
// final "*" say nothing more.
func (a *Control) unixPath(path string) {
	rest := strings.TrimLeft(path, "/")
	rest = strings.TrimSuffix(rest, "*")
	if rest != "" {
		a.warnings = append(a.warnings, fmt.Sprintf("Ignoring the path in host pattern \"%s\"", path))
	}
}

// lookupErrorText is the resolver's complaint as libpcp prints it,
// hstrerror's text for h_errno after a failed getaddrinfo: a name the
// name service does not know is HOST_NOT_FOUND, a lookup that could not
// be answered (no server reachable, a server failure) TRY_AGAIN.
func lookupErrorText(err error) string {
	var de *net.DNSError
	if errors.As(err, &de) && !de.IsNotFound {
		return "Host name lookup failure"
	}
	return "Unknown host"
}

// wildcardSpec reads an inet ("129.127.*", ".*") or IPv6 ("fe80:*",
// "fe80::1:*", ":*") wildcard: the given components must match and the
// rest is free; the level counts the free components.
func wildcardSpec(name string) (hostSpec, error) {
	body := strings.TrimSuffix(name, "*")
	if strings.Contains(name, ":") {
		return ipv6Wildcard(name, body)
	}
	if !strings.Contains(name, ".") {
		return hostSpec{}, errInval
	}
	addr := make(net.IP, 4)
	mask := make(net.IPMask, 4)
	level := 4
	if body != "." {
		// As PCP reads it, the last number may touch the '*'.
		parts := strings.Split(strings.TrimSuffix(body, "."), ".")
		for _, p := range parts {
			n, err := strconv.Atoi(p)
			if err != nil || n < 0 || n > 255 || !isNumber(p) {
				return hostSpec{}, errInval
			}
			addr[4-level] = byte(n)
			mask[4-level] = 0xff
			level--
			if level < 1 {
				return hostSpec{}, errInval
			}
		}
	}
	return hostSpec{name: name, addr: addr, mask: mask, level: level}, nil
}

// ipv6Wildcard reads an IPv6 wildcard. With a "::" the "*" stands for the
// last 16 bits only; without, for everything after the given groups.
func ipv6Wildcard(name, body string) (hostSpec, error) {
	if body == ":" || body == "::" {
		return hostSpec{name: name, addr: make(net.IP, 16), mask: make(net.IPMask, 16), level: 8}, nil
	}
	if !strings.HasSuffix(body, ":") {
		return hostSpec{}, errInval
	}
	if strings.Contains(body, "::") {
		if strings.Count(body, "::") > 1 {
			return hostSpec{}, errInval
		}
		ip := net.ParseIP(body + "0")
		if ip == nil {
			return hostSpec{}, errInval
		}
		// The given groups must match, wherever "::" puts them.
		groupsOf := strings.Split(body, ":")
		for i, g := range groupsOf {
			if g != "" {
				groupsOf[i] = "ffff"
			}
		}
		maskIP := net.ParseIP(strings.Join(groupsOf, ":") + "0")
		if maskIP == nil {
			return hostSpec{}, errInval
		}
		mask := net.IPMask(maskIP.To16())
		groups := strings.Count(strings.Trim(body, ":"), ":") + 1
		return hostSpec{name: name, addr: ip.Mask(mask), mask: mask, level: 8 - groups}, nil
	}
	parts := strings.Split(strings.TrimSuffix(body, ":"), ":")
	if len(parts) >= 8 {
		return hostSpec{}, errInval
	}
	addr := make(net.IP, 16)
	for i, p := range parts {
		n, err := strconv.ParseUint(p, 16, 16)
		if err != nil {
			return hostSpec{}, errInval
		}
		addr[2*i], addr[2*i+1] = byte(n>>8), byte(n)
	}
	return hostSpec{name: name, addr: addr, mask: net.CIDRMask(16*len(parts), 128), level: 8 - len(parts)}, nil
}

// addHost adds a statement's permissions for one host identifier.
func (a *Control) addHost(name string, s permSpec) error {
	if s.maxCons < 0 {
		return errInval
	}
	specs, err := a.hostSpecs(name)
	if err != nil {
		return err
	}
	found := 0
	for _, sp := range specs {
		i := 0
		var match *hostEntry
		for ; i < len(a.hosts); i++ {
			e := a.hosts[i]
			if e.level > sp.level {
				break
			}
			if e.level == sp.level && e.unix == sp.unix && e.addr.Equal(sp.addr) {
				match = e
				break
			}
		}
		if match != nil {
			if !mergePerms(&match.specOps, &match.denyOps, &match.maxCons, s) {
				a.notes = append(a.notes, fmt.Sprintf("Permission clash for %s with earlier statement for %s", sp.name, match.spec))
				continue
			}
		} else {
			e := &hostEntry{spec: sp.name, unix: sp.unix, addr: sp.addr, mask: sp.mask, level: sp.level,
				specOps: s.spec, denyOps: s.spec & s.deny, maxCons: s.maxCons}
			a.hosts = append(a.hosts[:i], append([]*hostEntry{e}, a.hosts[i:]...)...)
		}
		found++
	}
	if found == 0 {
		return errInval
	}
	return nil
}

// addUser adds a statement's permissions for one user name or "*".
func (a *Control) addUser(name string, s permSpec) error {
	return a.addAccount(&a.users, "user", name, s, func() (uint32, []uint32, error) {
		u, err := user.Lookup(name)
		if err != nil {
			return 0, nil, err
		}
		uid, err := strconv.ParseUint(u.Uid, 10, 32)
		if err != nil {
			return 0, nil, err
		}
		gid, err := strconv.ParseUint(u.Gid, 10, 32)
		if err != nil {
			return 0, nil, err
		}
		return uint32(uid), usersGroups(name, uint32(gid)), nil
	})
}

// addGroup adds a statement's permissions for one group name or "*".
func (a *Control) addGroup(name string, s permSpec) error {
	return a.addAccount(&a.groups, "group", name, s, func() (uint32, []uint32, error) {
		g, err := user.LookupGroup(name)
		if err != nil {
			return 0, nil, err
		}
		gid, err := strconv.ParseUint(g.Gid, 10, 32)
		if err != nil {
			return 0, nil, err
		}
		return uint32(gid), groupsUsers(name, uint32(gid)), nil
	})
}

// addAccount is addUser and addGroup: list[0] is the "*" entry, which
// denies everything until a statement for "*" says otherwise.
func (a *Control) addAccount(list *[]*acctEntry, kind, name string, s permSpec, lookup func() (uint32, []uint32, error)) error {
	if s.maxCons < 0 {
		return errInval
	}
	if len(*list) == 0 {
		*list = []*acctEntry{{name: "*", specOps: OpAll, denyOps: OpAll}}
	}
	if name == "*" {
		e := (*list)[0]
		e.specOps, e.denyOps, e.maxCons, e.curCons = s.spec, s.spec&s.deny, s.maxCons, 0
		return nil
	}
	id, ids, err := lookup()
	if err != nil {
		a.notes = append(a.notes, fmt.Sprintf("Failed to lookup %s \"%s\": %s", kind, name, accountErrorText(err)))
		return errInval
	}
	for _, e := range (*list)[1:] {
		if e.id == id {
			if !mergePerms(&e.specOps, &e.denyOps, &e.maxCons, s) {
				a.notes = append(a.notes, fmt.Sprintf("Permission clash for %s %s with earlier statement", kind, name))
				return errInval
			}
			return nil
		}
	}
	set := make(map[uint32]bool, len(ids))
	for _, x := range ids {
		set[x] = true
	}
	*list = append(*list, &acctEntry{name: name, id: id, ids: set, order: ids, specOps: s.spec, denyOps: s.spec & s.deny, maxCons: s.maxCons})
	return nil
}

// accountErrorText is libpcp's words for a failed account lookup: the
// errno getpwnam or getgrnam left, ENOENT's text for a name that is not
// there.
func accountErrorText(err error) string {
	var uu user.UnknownUserError
	var ug user.UnknownGroupError
	if errors.As(err, &uu) || errors.As(err, &ug) {
		return pcp.TextOf(syscall.ENOENT)
	}
	return err.Error()
}
