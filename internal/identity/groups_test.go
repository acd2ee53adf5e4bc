package identity

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// statusLine is the named line of /proc/pid/status ("Groups:\t995 ").
func statusLine(pid, name string) string {
	f, err := os.Open(filepath.Join("/proc", pid, "status"))
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), name+":") {
			return sc.Text()
		}
	}
	return ""
}

// TestSetGroupsLikePCP switches to user pcp from root with and without
// supplementary groups, as PCP's pmdasample -U does through libpcp's
// pmSetProcessIdentity and as Set does in a child of this test: the
// supplementary groups after the switch are the same (libpcp sets the
// user's only when the process had some: none stays none).
func TestSetGroupsLikePCP(t *testing.T) {
	if name := os.Getenv("GOPCP_IDENTITY_CHILD"); name != "" {
		if !Set(name, os.Stderr, "child") {
			os.Exit(2)
		}
		fmt.Println(statusLine("self", "Groups"))
		os.Exit(0)
	}
	t.Parallel()
	if os.Geteuid() != 0 {
		t.Skip("needs root to switch users")
	}
	u, err := user.Lookup("pcp")
	if err != nil {
		t.Skip("no pcp user")
	}
	sample := "/var/lib/pcp/pmdas/sample/pmdasample"
	if _, err := os.Stat(sample); err != nil {
		t.Skip("no PCP pmdasample")
	}
	for _, groups := range [][]uint32{{}, {4}, {4, 5}} {
		cred := &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 0, Gid: 0, Groups: groups}}

		cmd := exec.Command(sample, "-U", "pcp", "-l", filepath.Join(t.TempDir(), "sample.log"), "-d", "29")
		cmd.SysProcAttr = cred
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		pid := strconv.Itoa(cmd.Process.Pid)
		var want string
		// Poll until the agent has switched (its Uid line is pcp's);
		// the deadline only bounds a broken run.
		for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if f := strings.Fields(statusLine(pid, "Uid")); len(f) == 5 && f[4] == u.Uid {
				want = statusLine(pid, "Groups")
				break
			}
		}
		stdin.Close()
		cmd.Process.Kill()
		cmd.Wait()
		if want == "" {
			t.Fatalf("groups %v: PCP's pmdasample did not switch to pcp", groups)
		}

		child := exec.Command(os.Args[0], "-test.run=^TestSetGroupsLikePCP$")
		child.Env = append(os.Environ(), "GOPCP_IDENTITY_CHILD=pcp")
		child.SysProcAttr = cred
		out, err := child.Output()
		if err != nil {
			t.Fatalf("groups %v: child: %v", groups, err)
		}
		if got := strings.TrimSpace(string(out)); strings.TrimSpace(want) != got {
			t.Errorf("groups %v: after the switch PCP's %q, ours %q", groups, want, got)
		}
	}
}
