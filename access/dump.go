package access

import (
	"fmt"
	"math/bits"
	"net"
	"strings"
)

// nameWidth is libpcp's column width for an address in the dump.
const nameWidth = 39

// DumpHosts is the host access list as libpcp prints it for pmcd's log
// (__pmAccDumpHosts): a column per operation the server knows ("y"
// allowed, "n" denied, blank not mentioned), the connections counted and
// allowed (0 for no limit), the address and mask, the entry's level
// (most specific first) and the host as the statement named it. A Unix
// socket entry's address and mask show as "/", as libpcp shows an empty
// socket path.
func (a *Control) DumpHosts() string {
	if a == nil || len(a.hosts) == 0 {
		return "Host access list empty: host-based access control turned off\n"
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	ops := a.all()
	lo, hi := bits.TrailingZeros(uint(ops)), bits.Len(uint(ops))-1
	var b strings.Builder
	b.WriteString("Host access list:\n")
	for i := lo; i <= hi; i++ {
		if ops&(1<<i) != 0 {
			fmt.Fprintf(&b, "%02d ", i)
		}
	}
	fmt.Fprintf(&b, "Cur/MaxCons %-*s %-*s lvl host-name\n", nameWidth, "host-spec", nameWidth, "host-mask")
	for i := lo; i <= hi; i++ {
		if ops&(1<<i) != 0 {
			b.WriteString("== ")
		}
	}
	fmt.Fprintf(&b, "=========== %s %s === ==============\n", strings.Repeat("=", nameWidth), strings.Repeat("=", nameWidth))
	for _, e := range a.hosts {
		for i := lo; i <= hi; i++ {
			m := 1 << i
			switch {
			case ops&m == 0:
			case e.specOps&m == 0:
				b.WriteString("   ")
			case e.denyOps&m != 0:
				b.WriteString(" n ")
			default:
				b.WriteString(" y ")
			}
		}
		addr, mask := "/", "/"
		if !e.unix {
			addr, mask = e.addr.String(), net.IP(e.mask).String()
		}
		fmt.Fprintf(&b, "%5d %5d %-*s %-*s %3d %s\n", e.curCons, e.maxCons, nameWidth, addr, nameWidth, mask, e.level, e.spec)
	}
	return b.String()
}

// DumpAccounts is the user and group lists' lines of libpcp's dump when
// they are empty; lists with entries are not dumped here.
func (a *Control) DumpAccounts() string {
	var b strings.Builder
	if a == nil || len(a.users) == 0 {
		b.WriteString("User access list empty: user-based access control turned off\n")
	}
	if a == nil || len(a.groups) == 0 {
		b.WriteString("Group access list empty: group-based access control turned off\n")
	}
	return b.String()
}
