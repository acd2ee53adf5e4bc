package pcptest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestGoCommand builds a command once per Build: the same call gives the
// same program, Env reaches the go tool, Dir is where a relative package
// is read (one package named relative to two directories, or by its
// absolute path, is one build), and the program has its package's name
// in a directory other users can enter.
func TestGoCommand(t *testing.T) {
	const pkg = "./testdata/gocmdprobe"
	plain := GoCommand(t, pkg)
	if again := GoCommand(t, pkg); again != plain {
		t.Errorf("a second GoCommand built again: %s, then %s", plain, again)
	}
	noCgo := GoCommandWith(t, pkg, Build{Env: []string{"CGO_ENABLED=0"}})
	fromDir := GoCommandWith(t, "./gocmdprobe", Build{Dir: "testdata"})
	abs, err := filepath.Abs(pkg)
	if err != nil {
		t.Fatal(err)
	}
	if noCgo == plain {
		t.Errorf("different builds share a program: %s", plain)
	}
	if fromDir != plain {
		t.Errorf("the package named from testdata was built again: %s, then %s", plain, fromDir)
	}
	if byAbs := GoCommand(t, abs); byAbs != plain {
		t.Errorf("the package named by %s was built again: %s, then %s", abs, plain, byAbs)
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

// TestGoCommandTimeout: a build that outlasts its time limit ends with
// an error that says so, rather than holding the test binary until its
// own timeout.
func TestGoCommandTimeout(t *testing.T) {
	_, err := buildGo("./testdata/gocmdprobe", Build{Env: []string{"GOPCP_PCPTEST_TIMEOUT_TEST=1"}}, time.Nanosecond)
	if err == nil || !strings.Contains(err.Error(), "time limit") {
		t.Errorf("a build past its time limit: %v, want an error naming the limit", err)
	}
}
