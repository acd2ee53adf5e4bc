package pcptest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoCommand builds a command once per Build: the same call gives the
// same program, Env reaches the go tool, Dir is where a relative package
// is read, and the program has its package's name in a directory other
// users can enter.
func TestGoCommand(t *testing.T) {
	const pkg = "./testdata/gocmdprobe"
	plain := GoCommand(t, pkg)
	if again := GoCommand(t, pkg); again != plain {
		t.Errorf("a second GoCommand built again: %s, then %s", plain, again)
	}
	noCgo := GoCommandWith(t, pkg, Build{Env: []string{"CGO_ENABLED=0"}})
	fromDir := GoCommandWith(t, "./gocmdprobe", Build{Dir: "testdata"})
	if noCgo == plain || fromDir == plain || fromDir == noCgo {
		t.Errorf("different builds share a program: %s, %s, %s", plain, noCgo, fromDir)
	}
	for _, c := range []struct {
		bin, want string
	}{
		{plain, "gocmdprobe CGO_ENABLED="},
		{noCgo, "gocmdprobe CGO_ENABLED=0\n"},
		{fromDir, "gocmdprobe CGO_ENABLED="},
	} {
		out, err := exec.Command(c.bin).Output()
		if err != nil {
			t.Fatalf("%s: %v", c.bin, err)
		}
		if !strings.HasPrefix(string(out), c.want) {
			t.Errorf("%s printed %q, want %q", c.bin, out, c.want)
		}
		fi, err := os.Stat(filepath.Dir(c.bin))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o755 {
			t.Errorf("%s: mode %v, want 0755", filepath.Dir(c.bin), fi.Mode().Perm())
		}
	}
}

// TestGoCommandFailure: a package that does not build fails the test, and
// again on a second call.
func TestGoCommandFailure(t *testing.T) {
	for range 2 {
		ft := &fakeT{TB: t}
		done := make(chan struct{})
		go func() {
			defer close(done)
			GoCommand(ft, "./testdata/no-such-command")
		}()
		<-done
		if !ft.fatal {
			t.Error("a package that does not build did not fail the test")
		}
	}
}
