package access

import (
	"fmt"
	"math/bits"
	"net"
	"os/user"
	"strconv"
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

// idWidth is libpcp's column width for a user or group id in the dump.
const idWidth = 7

// DumpAccounts is the user and group access lists as libpcp prints them
// for pmcd's log (__pmAccDumpUsers, __pmAccDumpGroups): the operation
// columns as for hosts, the connection counts, the id ("*" for the entry
// that applies to everyone else), the name, and the groups of a user or
// users of a group as "id(name)", the entries last added first.
func (a *Control) DumpAccounts() string {
	var b strings.Builder
	if a == nil || len(a.users) == 0 {
		b.WriteString("User access list empty: user-based access control turned off\n")
	} else {
		a.dumpAccounts(&b, "User", "uid", "user-name", "group-list", a.users, groupName)
	}
	if a == nil || len(a.groups) == 0 {
		b.WriteString("Group access list empty: group-based access control turned off\n")
	} else {
		a.dumpAccounts(&b, "Group", "gid", "group-name", "user-list", a.groups, userName)
	}
	return b.String()
}

// dumpAccounts writes one account list; name turns a member's id into
// its name.
func (a *Control) dumpAccounts(b *strings.Builder, kind, idCol, nameCol, listCol string, list []*acctEntry, name func(uint32) string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	ops := a.all()
	lo, hi := bits.TrailingZeros(uint(ops)), bits.Len(uint(ops))-1
	fmt.Fprintf(b, "%s access list:\n", kind)
	for i := lo; i <= hi; i++ {
		if ops&(1<<i) != 0 {
			fmt.Fprintf(b, "%02d ", i)
		}
	}
	fmt.Fprintf(b, "Cur/MaxCons %*s %-*s %s\n", idWidth, idCol, nameWidth-idWidth-1, nameCol, listCol)
	for i := lo; i <= hi; i++ {
		if ops&(1<<i) != 0 {
			b.WriteString("== ")
		}
	}
	fmt.Fprintf(b, "=========== %s %s %s\n", strings.Repeat("=", idWidth), strings.Repeat("=", nameWidth-idWidth-1), strings.Repeat("=", nameWidth+19))
	for k := len(list) - 1; k >= 0; k-- {
		e := list[k]
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
		id := "*"
		if k > 0 {
			id = strconv.FormatUint(uint64(e.id), 10)
		}
		fmt.Fprintf(b, "%5d %5d %*s %-*s", e.curCons, e.maxCons, idWidth, id, nameWidth-idWidth-1, e.name)
		for i, m := range e.order {
			sep := ","
			if i == 0 {
				sep = " "
			}
			fmt.Fprintf(b, "%s%d(%s)", sep, m, name(m))
		}
		b.WriteByte('\n')
	}
}

// groupName and userName name an id as libpcp's dump does, "unknown"
// when the account database has no such id.
func groupName(id uint32) string {
	if g, err := user.LookupGroupId(strconv.FormatUint(uint64(id), 10)); err == nil {
		return g.Name
	}
	return "unknown"
}

func userName(id uint32) string {
	if u, err := user.LookupId(strconv.FormatUint(uint64(id), 10)); err == nil {
		return u.Username
	}
	return "unknown"
}
