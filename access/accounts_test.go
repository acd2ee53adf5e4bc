package access

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestAccountOrder checks the member lists are in libpcp's order: a
// user's primary group first, then groups naming it in file order; a
// group's users in passwd order, primary or named, each once.
func TestAccountOrder(t *testing.T) {
	dir := t.TempDir()
	group := filepath.Join(dir, "group")
	passwd := filepath.Join(dir, "passwd")
	os.WriteFile(group, []byte("root:x:0:\nwheel:x:10:bob,alice\nstaff:x:50:alice\nbroken\nusers:x:100:alice,alice\n"), 0o644)
	os.WriteFile(passwd, []byte("root:x:0:0::/:/bin/sh\nbob:x:1001:100::/:/bin/sh\nalice:x:1000:50::/:/bin/sh\nbad:x:y:100::/:/bin/sh\n"), 0o644)
	defer func(g, p string) { groupFile, passwdFile = g, p }(groupFile, passwdFile)
	groupFile, passwdFile = group, passwd
	cases := []struct {
		got, want []uint32
	}{
		{usersGroups("alice", 50), []uint32{50, 10, 100}},
		{usersGroups("bob", 100), []uint32{100, 10}},
		{usersGroups("root", 0), []uint32{0}},
		{groupsUsers("wheel", 10), []uint32{1001, 1000}},
		{groupsUsers("users", 100), []uint32{1001, 1000}},
		{groupsUsers("staff", 50), []uint32{1000}},
		{groupsUsers("none", 77), nil},
	}
	for i, c := range cases {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("case %d: got %v, want %v", i, c.got, c.want)
		}
	}
}
