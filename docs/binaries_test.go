package docs

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoProgramsCommitted: no file the repository tracks is a compiled
// program (an ELF file) outside testdata/: `go build ./cmd/pmval` at the
// top leaves ./pmval, and `git add -A` once took two such programs (15
// MB) into history. Run where git and the work tree are at hand.
func TestNoProgramsCommitted(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("git", "-C", root, "ls-files", "-z").Output()
	if err != nil {
		t.Skipf("no git work tree here: %v", err)
	}
	for _, name := range strings.Split(string(out), "\x00") {
		if name == "" || strings.Contains("/"+name, "/testdata/") {
			continue
		}
		f, err := os.Open(filepath.Join(root, name))
		if err != nil {
			continue // deleted in the work tree, not yet committed
		}
		head := make([]byte, 4)
		n, _ := f.Read(head)
		f.Close()
		if bytes.Equal(head[:n], []byte("\x7fELF")) {
			t.Errorf("%s is a compiled program", name)
		}
	}
}
