package main

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// daemonRun is what a pmproxy in systemd's mode (-F -U nobody) left:
// its files under its private directory while it served and after it
// ended ("owner:group mode path"), whether a user other than root could
// connect to its Unix socket, whether its pid file held its pid, and what
// it told the service manager ($NOTIFY_SOCKET), its pid as PID, and its
// log, masked.
type daemonRun struct {
	serving, after []string
	connect        string
	pidFile        string
	notices        []string
	log            string
}

// nobodyIDs are the user and group a client other than root connects as.
const nobodyIDs = 65534

// runDaemon starts bin as root in systemd's mode with PCP_RUN_DIR,
// PCP_TMP_DIR and NOTIFY_SOCKET in a fresh directory under shared, waits
// until it has switched user and made its statistics files, then stops
// it with SIGTERM.
func runDaemon(t *testing.T, bin, shared string) daemonRun {
	t.Helper()
	dir, run, tmp, conf := daemonDirs(t, shared, "pmproxy-daemon-")
	notifyPath := filepath.Join(dir, "notify")
	notify, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: notifyPath, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer notify.Close()
	// STOPPING=1 comes from the switched user
	if err := os.Chmod(notifyPath, 0o777); err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(dir, "pmproxy.log")
	socket := filepath.Join(run, "pmproxy.socket")
	port := testbed.ReservedPort(t)
	// -T bounds a run the test fails to stop.
	cmd := exec.Command(bin, "-F", "-U", "nobody", "-A", "-T", "60", "-p", strconv.Itoa(port), "-c", conf, "-l", logPath, "-s", socket)
	cmd.Env = daemonEnv(run, tmp, "NOTIFY_SOCKET="+notifyPath)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := pcptest.StartKept(cmd); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	stopped := false
	defer func() {
		if !stopped {
			cmd.Process.Kill()
			<-done
		}
	}()
	pid := strconv.Itoa(cmd.Process.Pid)
	webgroup := filepath.Join(tmp, "pmproxy", "webgroup")
	// Polled; the deadline only bounds a broken run.
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		log, _ := os.ReadFile(logPath)
		_, werr := os.Stat(webgroup)
		if strings.Contains(string(log), "user = ") && werr == nil {
			break
		}
		select {
		case <-done:
			t.Fatalf("%s ended: %s", bin, log)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: no banner and webgroup file: %s", bin, log)
		}
	}
	var r daemonRun
	r.serving = listFiles(t, dir, pid)
	r.connect = connectAs(socket, nobodyIDs)
	if b, err := os.ReadFile(filepath.Join(run, "pmproxy.pid")); err != nil {
		r.pidFile = err.Error()
	} else if strings.TrimSpace(string(b)) == pid {
		r.pidFile = "its pid"
	} else {
		r.pidFile = fmt.Sprintf("%q, not its pid", b)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatalf("%s did not end on SIGTERM", bin)
	}
	stopped = true
	r.after = listFiles(t, dir, pid)
	if b, err := os.ReadFile(logPath); err == nil {
		r.log = maskLog(string(b), dir, []int{port})
	}
	// what was sent is queued on the socket: read until none is left
	// (a read that would wait ends the loop; Go's deadlines would not
	// read at all once passed)
	raw, err := notify.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4096)
	for more := true; more; {
		raw.Read(func(fd uintptr) bool {
			n, _, err := syscall.Recvfrom(int(fd), buf, syscall.MSG_DONTWAIT)
			if err != nil || n < 0 {
				more = false
			} else {
				r.notices = append(r.notices, strings.ReplaceAll(string(buf[:n]), pid, "PID"))
			}
			return true
		})
	}
	return r
}

// rootPair is the pmproxies for a test that starts them as root
// and switches to nobody: PCP's and ours, and a directory others may
// reach (pcptest.SharedTemp); it skips the test when not root or without
// the user nobody.
func rootPair(t *testing.T) (theirs, ours, shared string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to switch users")
	}
	if _, err := user.LookupId(strconv.Itoa(nobodyIDs)); err != nil {
		t.Skip("no user nobody")
	}
	theirs, ours = pmproxyPair(t)
	shared, err := pcptest.SharedTemp()
	if err != nil {
		t.Fatal(err)
	}
	return theirs, ours, shared
}

// daemonDirs makes a fresh directory under shared for a daemon's files,
// with run and tmp (PCP_RUN_DIR and PCP_TMP_DIR, tmp/pmproxy made) and
// a pmproxy.conf with Redis and discovery off; the service user may
// write in them all, as in PCP's packaging. They go at the test's end.
func daemonDirs(t *testing.T, shared, pattern string) (dir, run, tmp, conf string) {
	t.Helper()
	dir, err := os.MkdirTemp(shared, pattern)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	run, tmp = filepath.Join(dir, "run"), filepath.Join(dir, "tmp")
	for _, d := range []string{dir, run, tmp, filepath.Join(tmp, "pmproxy")} {
		if err := os.MkdirAll(d, 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(d, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	conf = filepath.Join(dir, "pmproxy.conf")
	if err := os.WriteFile(conf, []byte("[pmproxy]\nhttp.enabled = true\n[redis]\nenabled = false\n[discover]\nenabled = false\n[pmseries]\nenabled = false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, run, tmp, conf
}

// daemonEnv is the test's environment without what says where a pmproxy
// runs and listens, with PCP_RUN_DIR and PCP_TMP_DIR set to run and tmp
// and extra added.
func daemonEnv(run, tmp string, extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		switch name, _, _ := strings.Cut(kv, "="); name {
		case "PCP_USER", "PCP_RUN_DIR", "PCP_TMP_DIR", "PMPROXY_PORT", "PMPROXY_LOCAL", "PMPROXY_SOCKET", "NOTIFY_SOCKET":
			continue
		}
		env = append(env, kv)
	}
	return append(append(env, "PCP_RUN_DIR="+run, "PCP_TMP_DIR="+tmp), extra...)
}

// listFiles is the files and sockets under dir but the test's own (log,
// configuration, notify socket), as "owner:group mode path".
func listFiles(t *testing.T, dir, pid string) []string {
	t.Helper()
	var out []string
	filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(dir, path)
		switch rel {
		case "pmproxy.log", "pmproxy.log.prev", "pmproxy.conf", "notify":
			return nil
		}
		st := info.Sys().(*syscall.Stat_t)
		out = append(out, fmt.Sprintf("%s:%s %v %s", userName(st.Uid), groupName(st.Gid), info.Mode(), strings.ReplaceAll(rel, pid, "PID")))
		return nil
	})
	sort.Strings(out)
	return out
}

func userName(id uint32) string {
	if u, err := user.LookupId(strconv.Itoa(int(id))); err == nil {
		return u.Username
	}
	return strconv.Itoa(int(id))
}

func groupName(id uint32) string {
	if g, err := user.LookupGroupId(strconv.Itoa(int(id))); err == nil {
		return g.Name
	}
	return strconv.Itoa(int(id))
}

// connectAs connects to the Unix socket at path with the file system
// credentials of uid and gid and no supplementary groups, as a client of
// that user would: set on one thread alone (raw system calls, which Go
// does not repeat on its other threads), a thread then left to end with
// its goroutine. It says "connected" or the error.
func connectAs(path string, id int) string {
	res := make(chan string, 1)
	go func() {
		// never unlocked: the thread, with its changed credentials,
		// ends with this goroutine
		runtime.LockOSThread()
		if _, _, e := syscall.RawSyscall(syscall.SYS_SETGROUPS, 0, 0, 0); e != 0 {
			res <- "setgroups: " + e.Error()
			return
		}
		syscall.RawSyscall(syscall.SYS_SETFSGID, uintptr(id), 0, 0)
		syscall.RawSyscall(syscall.SYS_SETFSUID, uintptr(id), 0, 0)
		fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
		if err != nil {
			res <- err.Error()
			return
		}
		defer syscall.Close(fd)
		if err := syscall.Connect(fd, &syscall.SockaddrUnix{Name: path}); err != nil {
			res <- err.Error()
			return
		}
		res <- "connected"
	}()
	return <-res
}

// TestDaemonLikePCP: as root in systemd's mode (-F -U nobody), PCP's
// pmproxy and ours make the same files with the same owners and modes:
// the Unix socket open to every user (one other than root connects), the
// pid file with its pid (mode 444, root's: written before the switch) and
// the server statistics file root's, the webgroup file the new user's;
// they tell the service manager READY=1 and MAINPID, then STOPPING=1 at
// SIGTERM, leave the same files behind and write the same log.
func TestDaemonLikePCP(t *testing.T) {
	t.Parallel()
	theirs, ours, shared := rootPair(t)
	want := runDaemon(t, theirs, shared)
	got := runDaemon(t, ours, shared)
	t.Logf("PCP's: %+v", want)
	t.Logf("ours:  %+v", got)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("ours differs from PCP's:\n ours  %+v\n PCP's %+v", got, want)
	}
	if want.connect != "connected" {
		t.Errorf("PCP's pmproxy's socket refused another user: %s", want.connect)
	}
}

// TestDaemonLeavesOthersPIDFile: a pid file naming another live process
// (pid 1 here; a system pmproxy beside ours in use) is neither written
// over nor removed by ours in systemd's mode: it serves without one and
// says so in its log.
func TestDaemonLeavesOthersPIDFile(t *testing.T) {
	t.Parallel()
	me, err := user.Current()
	if err != nil {
		t.Skip(err)
	}
	ours := buildPMProxy(t)
	dir := t.TempDir()
	run, tmp := filepath.Join(dir, "run"), filepath.Join(dir, "tmp")
	for _, d := range []string{run, filepath.Join(tmp, "pmproxy")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	pidPath := filepath.Join(run, "pmproxy.pid")
	if err := os.WriteFile(pidPath, []byte("1"), 0o444); err != nil {
		t.Fatal(err)
	}
	before, err := os.Stat(pidPath)
	if err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(dir, "pmproxy.conf")
	if err := os.WriteFile(conf, []byte("[redis]\nenabled = false\n[discover]\nenabled = false\n[pmseries]\nenabled = false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(dir, "pmproxy.log")
	port := testbed.ReservedPort(t)
	// -T 1 ends it once it has served; the switch is to the user it
	// already is, so any user may run this.
	cmd := exec.Command(ours, "-F", "-U", me.Username, "-A", "-T", "1", "-p", strconv.Itoa(port), "-c", conf, "-l", logPath, "-s", filepath.Join(run, "pmproxy.socket"))
	cmd.Env = daemonEnv(run, tmp)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	after, err := os.Stat(pidPath)
	if err != nil {
		t.Fatalf("another's pid file removed: %v", err)
	}
	if b, _ := os.ReadFile(pidPath); string(b) != "1" || !os.SameFile(before, after) {
		t.Errorf("another's pid file replaced or rewritten: %q", b)
	}
	log, _ := os.ReadFile(logPath)
	if !strings.Contains(string(log), "no pid file") || !strings.Contains(string(log), "user = "+me.Username) {
		t.Errorf("log says neither that it has no pid file nor that it served:\n%s", log)
	}
}
