package main

import (
	"bufio"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// userRun is what became of a pmproxy started with some options: its
// credentials once it served (Uid, Gid and Groups of /proc/PID/status),
// or its exit status and its log's critical lines when it did not.
type userRun struct {
	ids      string
	status   int
	critical string
}

// runAsUser starts bin with args on a private port, PCP_RUN_DIR and
// PCP_TMP_DIR in dir (which cred's user, when given, may write), and
// waits for its log's banner, which both pmproxies write once they
// have switched, or for its end.
func runAsUser(t *testing.T, bin, dir string, cred *syscall.Credential, args ...string) userRun {
	t.Helper()
	port := testbed.ReservedPort(t)
	logPath := filepath.Join(dir, "pmproxy.log")
	os.Remove(logPath)
	conf := filepath.Join(dir, "pmproxy.conf")
	if err := os.WriteFile(conf, []byte("[pmproxy]\nhttp.enabled = true\n[redis]\nenabled = false\n[discover]\nenabled = false\n[pmseries]\nenabled = false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// -T bounds a run the test fails to stop.
	cmd := exec.Command(bin, append([]string{"-A", "-T", "60", "-p", strconv.Itoa(port), "-c", conf, "-l", logPath,
		"-s", filepath.Join(dir, "run", "pmproxy.socket")}, args...)...)
	cmd.Dir = dir
	cmd.Env = daemonEnv(filepath.Join(dir, "run"), filepath.Join(dir, "tmp"))
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGKILL}
	if err := pcptest.StartKept(cmd); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	defer func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	}()
	pid := strconv.Itoa(cmd.Process.Pid)
	// Polled; the deadline only bounds a broken run.
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		select {
		case <-done:
			log, _ := os.ReadFile(logPath)
			var crit []string
			for _, l := range strings.Split(string(log), "\n") {
				if strings.Contains(l, "Critical:") {
					crit = append(crit, stamp.ReplaceAllString(l, "[TIME] pmproxy(PID)"))
				}
			}
			return userRun{status: cmd.ProcessState.ExitCode(), critical: strings.Join(crit, "\n")}
		default:
		}
		if log, _ := os.ReadFile(logPath); strings.Contains(string(log), "user = ") {
			var ids []string
			for _, name := range []string{"Uid", "Gid", "Groups"} {
				ids = append(ids, procStatus(pid, name))
			}
			return userRun{ids: strings.Join(ids, "; ")}
		}
	}
	t.Fatalf("%s %v: neither served nor ended", bin, args)
	return userRun{}
}

// procStatus is the named line of /proc/PID/status, its fields.
func procStatus(pid, name string) string {
	f, err := os.Open(filepath.Join("/proc", pid, "status"))
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), name+":"); ok {
			return name + ": " + strings.Join(strings.Fields(rest), " ")
		}
	}
	return ""
}

// TestUserLikePCP: started as root, PCP's pmproxy and ours switch to -U's
// user (default pcp) once their ports are bound, unless -f keeps them in
// the foreground (-F, systemd's mode, switches too); both refuse an
// unknown user, and a switch they are not allowed (not started as root),
// with libpcp's message, and exit 1. The credentials they end with are
// the same, and those of the user named.
func TestUserLikePCP(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		t.Skip("needs root to switch users")
	}
	theirs, ours := pmproxyPair(t)
	shared, err := pcptest.SharedTemp()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp(shared, "pmproxy-user-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	// The non-root runs write here too.
	for _, d := range []string{dir, filepath.Join(dir, "run"), filepath.Join(dir, "tmp")} {
		if err := os.MkdirAll(d, 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(d, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	idsOf := func(name string) string {
		u, err := user.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		return "Uid: " + strings.Repeat(u.Uid+" ", 3) + u.Uid + "; Gid: " + strings.Repeat(u.Gid+" ", 3) + u.Gid
	}
	users := []string{"nobody"}
	if _, err := user.Lookup("pcp"); err == nil {
		users = append(users, "pcp")
	}
	nobody := &syscall.Credential{Uid: 65534, Gid: 65534}
	type check struct {
		name string
		cred *syscall.Credential
		args []string
		want string // the credentials' prefix, when it serves
	}
	var checks []check
	for _, u := range users {
		checks = append(checks, check{"-F -U " + u, nil, []string{"-F", "-U", u}, idsOf(u)})
	}
	if len(users) > 1 {
		checks = append(checks, check{"-F, the default user", nil, []string{"-F"}, idsOf("pcp")})
	}
	// libpcp sets the user's supplementary groups only when the process
	// had some of its own
	withGroups := &syscall.Credential{Uid: 0, Gid: 0, Groups: []uint32{4, 5}}
	for _, u := range users {
		checks = append(checks, check{"-F -U " + u + ", started with groups 4 and 5", withGroups, []string{"-F", "-U", u}, idsOf(u)})
	}
	checks = append(checks,
		check{"-f -U nobody", nil, []string{"-f", "-U", "nobody"}, "Uid: 0 0 0 0; Gid: 0 0 0 0"},
		check{"-F -U unknown", nil, []string{"-F", "-U", "no-such-user-gopcp"}, ""},
		// an empty -U is a user named "", not the default
		check{"-F -U ''", nil, []string{"-F", "-U", ""}, ""},
		check{"-F -U nobody, started as nobody", nobody, []string{"-F", "-U", "nobody"}, idsOf("nobody")},
	)
	if len(users) > 1 {
		checks = append(checks, check{"-F -U pcp, started as nobody", nobody, []string{"-F", "-U", "pcp"}, ""})
	}
	for _, c := range checks {
		want := runAsUser(t, theirs, dir, c.cred, c.args...)
		got := runAsUser(t, ours, dir, c.cred, c.args...)
		if got != want {
			t.Errorf("%s: ours %+v, PCP's %+v", c.name, got, want)
		}
		switch {
		case c.want != "" && !strings.HasPrefix(want.ids, c.want):
			t.Errorf("%s: PCP's pmproxy has %q, the test wants %q", c.name, want.ids, c.want)
		case c.want == "" && (want.status != 1 || want.critical == ""):
			t.Errorf("%s: PCP's pmproxy served or said nothing: %+v", c.name, want)
		}
		t.Logf("%s: %+v", c.name, got)
	}
}
