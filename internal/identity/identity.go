// Package identity switches the process to another user account as
// libpcp's pmSetProcessIdentity does, with its messages: the -U option
// of PCP's daemons and dbpmda.
package identity

import (
	"fmt"
	"io"
	"os/user"
	"strconv"
	"strings"
	"syscall"

	"github.com/gopcp/gopcp/internal/ownfile"
)

// Set makes the process run as the user name: the group, supplementary
// groups when it has any, then the user. Complaints are written to w as
// pmNotifyErr's critical ones from prog (after which PCP's programs exit
// 1); it reports whether the switch was made.
func Set(name string, w io.Writer, prog string) bool {
	crit := func(format string, args ...any) bool {
		ownfile.Notify(w, prog, "Critical", fmt.Sprintf(format, args...))
		return false
	}
	u, err := user.Lookup(name)
	if err != nil {
		return crit("cannot find the %s user to switch to", name)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := syscall.Setgid(gid); err != nil {
		return crit("setgid to gid of %s user (gid=%d): %s", name, gid, errnoText(err))
	}
	// libpcp (6.0.3 too) calls initgroups only when the process has
	// supplementary groups of its own, so a process with none switches
	// to a user with none (TestSetGroupsLikePCP); EPERM is tolerated.
	if groups, _ := syscall.Getgroups(); len(groups) > 0 {
		var ids []int
		if gs, err := u.GroupIds(); err == nil {
			for _, g := range gs {
				if n, err := strconv.Atoi(g); err == nil {
					ids = append(ids, n)
				}
			}
		}
		if err := syscall.Setgroups(ids); err != nil && err != syscall.EPERM {
			return crit("initgroups with gid of %s user (gid=%d): %s", name, gid, errnoText(err))
		}
	}
	if err := syscall.Setuid(uid); err != nil {
		return crit("setuid to uid of %s user (uid=%d): %s", name, uid, errnoText(err))
	}
	return true
}

// errnoText is strerror's text of a system call's error.
func errnoText(err error) string {
	if en, ok := err.(syscall.Errno); ok {
		if s := en.Error(); s != "" {
			return strings.ToUpper(s[:1]) + s[1:]
		}
	}
	return err.Error()
}
