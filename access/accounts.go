package access

import (
	"bufio"
	"os"
	"slices"
	"strconv"
	"strings"
)

// Where the account databases are; PCP reads them through the C
// library's getgrent and getpwent, which on a host without other name
// services read these files in order.
var (
	groupFile  = "/etc/group"
	passwdFile = "/etc/passwd"
)

// dbLines calls fn with the colon-separated fields of each line of an
// account file, in the file's order, until fn returns false. A line
// longer than the scanner's limit ends the walk, as a C library entry too
// large for its buffer ends libpcp's.
func dbLines(path string, fn func(f []string) bool) {
	f, err := os.Open(path)
	if err != nil {
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if !fn(strings.Split(sc.Text(), ":")) {
			return
		}
	}
}

// usersGroups are the groups a user is in, as libpcp lists them: the
// user's primary group first, then each group naming it as a member, in
// the group file's order, each once.
func usersGroups(name string, primary uint32) []uint32 {
	ids := []uint32{primary}
	dbLines(groupFile, func(f []string) bool {
		if len(f) < 4 || !slices.Contains(strings.Split(f[3], ","), name) {
			return true
		}
		if n, err := strconv.ParseUint(f[2], 10, 32); err == nil && !slices.Contains(ids, uint32(n)) {
			ids = append(ids, uint32(n))
		}
		return true
	})
	return ids
}

// groupsUsers are the users in a group, as libpcp lists them: in the
// passwd file's order, each user whose primary group it is or whom the
// group names as a member, each once.
func groupsUsers(name string, gid uint32) []uint32 {
	var members []string
	dbLines(groupFile, func(f []string) bool {
		if len(f) >= 4 && f[0] == name {
			if f[3] != "" {
				members = strings.Split(f[3], ",")
			}
			return false
		}
		return true
	})
	var ids []uint32
	dbLines(passwdFile, func(f []string) bool {
		if len(f) < 4 {
			return true
		}
		uid, err := strconv.ParseUint(f[2], 10, 32)
		if err != nil {
			return true
		}
		if (f[3] == strconv.FormatUint(uint64(gid), 10) || slices.Contains(members, f[0])) && !slices.Contains(ids, uint32(uid)) {
			ids = append(ids, uint32(uid))
		}
		return true
	})
	return ids
}
