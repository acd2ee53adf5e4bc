package main

import (
	"encoding/binary"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pdu"
)

// primaryFiles is what a primary logger leaves for PCP's tools to find
// it, with each link's target and the pid file's contents, masked by
// the logger's process id.
func primaryFiles(t *testing.T, p *testbed.PMCD, pid int) string {
	t.Helper()
	run, tmp := bedDir(p, "PCP_RUN_DIR"), bedDir(p, "PCP_TMP_DIR")
	var b strings.Builder
	for _, f := range []string{
		filepath.Join(run, "pmlogger.pid"),
		filepath.Join(run, "pmlogger."+strconv.Itoa(pid)+".socket"),
		filepath.Join(run, "pmlogger.primary.socket"),
		filepath.Join(tmp, "pmlogger", strconv.Itoa(pid)),
		filepath.Join(tmp, "pmlogger", "primary"),
	} {
		fi, err := os.Lstat(f)
		if err != nil {
			b.WriteString(f + ": missing\n")
			continue
		}
		b.WriteString(f + ": " + fi.Mode().String())
		if target, err := os.Readlink(f); err == nil {
			b.WriteString(" -> " + target)
		}
		if strings.HasSuffix(f, ".pid") {
			data, _ := os.ReadFile(f)
			b.WriteString(" holding " + string(data))
		}
		b.WriteString("\n")
	}
	return strings.ReplaceAll(b.String(), strconv.Itoa(pid), "PID")
}

// TestPrimaryAgainstPCP runs PCP's pmlogger -P and ours in turn on one
// pmcd (reached through local:, as a primary logger must be): the pid
// file, the Unix-domain socket, the port map file and both "primary"
// links are the same (modes, targets, contents), PCP's pmlc -P (over the
// socket link) and pmlc -h localhost PRIMARY (the map link) print the
// same status, a second primary is refused with the same message and
// status whichever runs first, and all of it is gone after SIGINT.
// pmlogger -P runs as the user -U names (PCP's default is "pcp"), here
// the test's own.
func TestPrimaryAgainstPCP(t *testing.T) {
	p, bin, dir, cfg := startPair(t, "log mandatory on 1 sec { sample.long.one }\n")
	me, err := user.Current()
	if err != nil {
		t.Skip(err)
	}
	args := []string{"-P", "-U", me.Username, "-c", cfg}
	status := func() string {
		var out string
		for _, args := range [][]string{{"-P"}, {"-h", "localhost", "-P"}} {
			r := runPMLC(p, "status\n", args...)
			out += r.Stdout + r.Stderr
		}
		return maskLog(out)
	}
	type result struct{ files, status, second, secondLog, after, log string }
	record := func(pcp bool, name string) result {
		first := mustLaunch(t, p, bin, pcp, filepath.Join(dir, name+"1"), args...)
		// The socket's link comes just after the port map file.
		link := filepath.Join(bedDir(p, "PCP_RUN_DIR"), "pmlogger.primary.socket")
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if _, err := os.Lstat(link); err == nil {
				break
			}
		}
		var r result
		r.files = primaryFiles(t, p, first.pid)
		r.status = status()
		// A second primary, of the same kind, is refused.
		c := []string{"-l", filepath.Join(dir, name+"2.log")}
		c = append(append(c, args...), filepath.Join(dir, name+"2"))
		var cmd *exec.Cmd
		if pcp {
			cmd, _ = p.Command(t.Context(), "pmlogger", c...)
		} else {
			cmd = exec.Command(bin, c...)
			cmd.Env = p.Env()
		}
		// should it bind before it is refused: a private port
		cmd.Env = append(cmd.Env, "PMLOGGER_PORT="+strconv.Itoa(freePortBase(t)))
		out, err := cmd.CombinedOutput()
		code := 0
		if err != nil {
			code = cmd.ProcessState.ExitCode()
		}
		second, _ := os.ReadFile(filepath.Join(dir, name+"2.log"))
		r.second = string(out) + "exit " + strconv.Itoa(code)
		r.secondLog = maskLog(strings.ReplaceAll(string(second), strconv.Itoa(first.pid), "FIRST"))
		r.log = maskLog(first.Stop())
		r.after = primaryFiles(t, p, first.pid)
		return r
	}
	want := record(true, "pcp")
	got := record(false, "our")
	for _, c := range []struct{ what, want, got string }{
		{"files", want.files, got.files},
		{"pmlc -P status", want.status, got.status},
		{"second primary", want.second, got.second},
		{"second primary's log", want.secondLog, got.secondLog},
		{"log", want.log, got.log},
		{"files after SIGINT", want.after, got.after},
	} {
		if testing.Verbose() {
			t.Logf("%s:\n%s", c.what, c.got)
		}
		if c.want != c.got {
			t.Errorf("%s:\nPCP's:\n%s\nours:\n%s", c.what, c.want, c.got)
		}
	}
}

// TestOptionErrorsAgainstPCP gives PCP's pmlogger and ours bad option
// combinations: the same usage message and exit status.
func TestOptionErrorsAgainstPCP(t *testing.T) {
	// Waits on daemons, not CPUs: run beside the other comparisons.
	t.Parallel()
	p := testbed.StartPMCD(t, testbed.Options{})
	bin := pcptest.GoCommand(t, ".")
	usage := regexp.MustCompile(`(?s)\nUsage: .*`)
	for _, args := range [][]string{
		{"--help"},
		{"--version"},
		{"-I", "x", "a"},
		{"-I", "4", "a"},
		{"-I", "1", "a"},
		{"-P", "-h", "localhost", "a"},
		{"-L", "-U", "nobody"},
		{"a", "b"},
		{"-C", "-c", "/dev/null", "a"},
		{"-o", "-h", "localhost", "a"},
		{"-p", "x", "a"},
		{"-p", "2147483646", "a"},
	} {
		r := p.Run("pmlogger", args...)
		cmd := exec.Command(bin, args...)
		cmd.Env = p.Env()
		out, err := cmd.CombinedOutput()
		code, pcpCode := 0, 0
		if err != nil {
			code = cmd.ProcessState.ExitCode()
		}
		if r.Err != nil {
			pcpCode = 1
		}
		want, got := r.Stdout+r.Stderr, string(out)
		if args[0] != "--help" {
			want = usage.ReplaceAllString(want, "\nUsage: ...")
			got = usage.ReplaceAllString(got, "\nUsage: ...")
		}
		if want != got || code != pcpCode {
			t.Errorf("pmlogger %q:\nPCP's (exit %d):\n%s\nours (exit %d):\n%s", args, pcpCode, want, code, got)
		}
	}
}

// TestPMLCVersionAgainstPCP starts PCP's pmlogger and ours with -I 2 (the
// control protocol an old pmlc speaks) and with no -I: the
// acknowledgement each sends a client carries the same version, and
// PCP's pmlc prints the same status for both. A second client while one
// is connected is told EADDRINUSE by both.
func TestPMLCVersionAgainstPCP(t *testing.T) {
	p, bin, dir, cfg := startPair(t, "log mandatory on 1 sec { sample.long.one }\n")
	// ack connects and returns the acknowledgement's code, keeping the
	// connection open until the test ends. A logger serves one client at
	// a time and may not yet have seen the previous one (pmlc, just
	// ended) go: EADDRINUSE then is that race, not an answer, and ack
	// tries again, as runPMLC does.
	ack := func(port int) int32 {
		var code int32
		for try := 0; try < 100; try++ {
			c, err := net.Dial("tcp", "localhost:"+strconv.Itoa(port))
			if err != nil {
				t.Fatal(err)
			}
			b, err := pdu.NewReader(c, pdu.DefaultTimeout).ReadPDU(t.Context())
			if err != nil {
				c.Close()
				t.Fatal(err)
			}
			m, err := pdu.Decode(b)
			if err != nil {
				c.Close()
				t.Fatal(err)
			}
			e, ok := m.(*pdu.Error)
			if !ok {
				c.Close()
				t.Fatalf("acknowledgement is %T", m)
			}
			if code = e.Code; code != -int32(syscall.EADDRINUSE) {
				t.Cleanup(func() { c.Close() })
				break
			}
			c.Close()
			time.Sleep(50 * time.Millisecond)
		}
		return code
	}
	for _, extra := range [][]string{{"-I", "2"}, nil} {
		args := append([]string{"-h", p.Host(), "-c", cfg}, extra...)
		tag := strings.Join(extra, "")
		theirs := mustLaunch(t, p, bin, true, filepath.Join(dir, "pcp"+tag), args...)
		ours := mustLaunch(t, p, bin, false, filepath.Join(dir, "our"+tag), args...)
		status := func(l *runningLogger) string {
			r := p.RunInput([]byte("status\n"), "pmlc", "-h", "localhost", "-p", strconv.Itoa(l.port))
			return maskLog(r.Stdout + r.Stderr)
		}
		statusWhenFree := func(l *runningLogger) string {
			r := runPMLC(p, "status\n", "-h", "localhost", "-p", strconv.Itoa(l.port))
			return maskLog(r.Stdout + r.Stderr)
		}
		if want, got := statusWhenFree(theirs), statusWhenFree(ours); want != got {
			t.Errorf("%v: pmlc status:\nPCP's:\n%s\nours:\n%s", extra, want, got)
		}
		if want, got := ack(theirs.port), ack(ours.port); want != got {
			t.Errorf("%v: acknowledgement %d, PCP's %d", extra, got, want)
		}
		// Each registered its command line with pmcd.
		r := p.Run("pminfo", "-f", "-h", p.Host(), "pmcd.client.whoami")
		var who []string
		for _, line := range strings.Split(r.Stdout, "\n") {
			for _, l := range []*runningLogger{theirs, ours} {
				if strings.Contains(line, l.base+"\"") {
					line = line[strings.Index(line, "value "):]
					line = strings.ReplaceAll(line, l.base, "ARCHIVE")
					who = append(who, regexp.MustCompile(`\) \S+ `).ReplaceAllString(line, ") PMLOGGER "))
				}
			}
		}
		if len(who) != 2 || who[0] != who[1] || !strings.Contains(who[0], " -h "+p.Host()+" -c "+cfg) {
			t.Errorf("pmcd.client.whoami of the loggers: %q\n%s", who, r.Stdout)
		}
		// The connection ack made is still open: a second is refused.
		if want, got := status(theirs), status(ours); want != got || !strings.Contains(got, "in use") {
			t.Errorf("%v: pmlc status while another client is connected:\nPCP's:\n%s\nours:\n%s", extra, want, got)
		}
	}
}

// TestWatchPIDAgainstPCP runs PCP's pmlogger and ours with -p on a
// process that then ends: both stop at their next sample with the same
// message and leave archives PCP's pmlogcheck passes.
func TestWatchPIDAgainstPCP(t *testing.T) {
	p, bin, dir, cfg := startPair(t, "log mandatory on 100 msec { sample.long.one }\n")
	target := exec.Command("sleep", "600")
	if err := target.Start(); err != nil {
		t.Skip(err)
	}
	defer target.Process.Kill()
	args := []string{"-h", p.Host(), "-c", cfg, "-p", strconv.Itoa(target.Process.Pid)}
	theirs := mustLaunch(t, p, bin, true, filepath.Join(dir, "pcp"), args...)
	ours := mustLaunch(t, p, bin, false, filepath.Join(dir, "our"), args...)
	target.Process.Kill()
	target.Wait()
	logs := map[*runningLogger]string{}
	for _, l := range []*runningLogger{theirs, ours} {
		select {
		case err := <-l.done:
			l.stopped = true
			if err != nil {
				t.Errorf("%s: %v", l.base, err)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%s still running 30 s after the -p process ended", l.base)
		}
		data, _ := os.ReadFile(l.log)
		logs[l] = maskLog(string(data))
		logcheck(t, p, l.base)
	}
	if logs[theirs] != logs[ours] {
		t.Errorf("logs differ:\nPCP's:\n%s\nours:\n%s", logs[theirs], logs[ours])
	}
}

// TestSIGUSR2AgainstPCP sends SIGUSR2 to PCP's pmlogger and ours, each
// logging to an archive named with strftime conversions: each finishes
// its archive, runs itself again with "-mreexec" (the same process id,
// the log carried on without a new header), and, the expanded name being
// taken, logs to its "-00" archive, which the port map file then names.
// The logs are the same and every archive passes PCP's pmlogcheck.
func TestSIGUSR2AgainstPCP(t *testing.T) {
	// A signal during one of PCP's PDU exchanges with pmcd has been seen
	// to break its connection ("Unsolicited TEXT PDU"), so the samples
	// are seconds apart and the signal comes after the first.
	p, bin, dir, cfg := startPair(t, "log mandatory on 2 sec { sample.long.one }\n")
	me, err := user.Current()
	if err != nil {
		t.Skip(err)
	}
	// -U keeps the re-executed logger (a daemon then) as this user.
	args := []string{"-h", p.Host(), "-c", cfg, "-U", me.Username, "-m", "a note"}
	logs := map[string]string{}
	for _, name := range []string{"pcp", "our"} {
		l := mustLaunch(t, p, bin, name == "pcp", filepath.Join(dir, name+"-%Y"), args...)
		waitRecords(t, strings.TrimSuffix(l.base, "%Y")+strconv.Itoa(time.Now().Year())+".0", 2)
		l.cmd.Process.Signal(syscall.SIGUSR2)
		year := strconv.Itoa(time.Now().Year())
		second := filepath.Join(dir, name+"-"+year+"-00")
		for deadline := time.Now().Add(30 * time.Second); ; {
			if b, err := os.ReadFile(l.mapFile); err == nil && strings.Contains(string(b), second+"\n") {
				break
			}
			if time.Now().After(deadline) || l.Exited() {
				data, _ := os.ReadFile(l.log)
				if name == "pcp" {
					t.Skipf("PCP's pmlogger did not come back after SIGUSR2:\n%s", data)
				}
				t.Fatalf("our pmlogger did not come back after SIGUSR2:\n%s", data)
			}
			time.Sleep(20 * time.Millisecond)
		}
		log := l.Stop()
		if name == "pcp" && strings.Contains(log, "Lost connection to PMCD") {
			t.Skipf("PCP's pmlogger lost its pmcd connection; nothing to compare with:\n%s", log)
		}
		log = strings.ReplaceAll(log, filepath.Join(dir, name), "DIR/LOGGER")
		// The command line re-run starts with the program's path.
		log = regexp.MustCompile(`cmdlne: \S+`).ReplaceAllString(log, "cmdlne: PMLOGGER")
		logs[name] = maskLog(log)
		for _, a := range []string{filepath.Join(dir, name+"-"+year), second} {
			logcheck(t, p, a)
		}
	}
	if testing.Verbose() {
		t.Logf("log:\n%s", logs["our"])
	}
	if logs["pcp"] != logs["our"] {
		t.Errorf("logs differ:\nPCP's:\n%s\nours:\n%s\nfirst difference: %s", logs["pcp"], logs["our"], firstDiff(logs["pcp"], logs["our"]))
	}
}

// waitRecords waits until a data volume holds n records after its label
// (the prologue counts), by their length words.
func waitRecords(t *testing.T, vol string, n int) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		b, err := os.ReadFile(vol)
		if err != nil {
			continue
		}
		count := -1 // the label
		for off := 0; off+4 <= len(b); count++ {
			size := int(binary.BigEndian.Uint32(b[off:]))
			if size < 8 || off+size > len(b) {
				break
			}
			off += size
		}
		if count >= n {
			return
		}
	}
	t.Fatalf("%s: fewer than %d records after 30 s", vol, n)
}

// TestSIGHUPAgainstPCP sends SIGHUP to PCP's pmlogger and ours after
// their first samples: each goes on in data volume 1 with the same "New
// log volume 1, via SIGHUP" line, and each archive passes pmlogcheck.
func TestSIGHUPAgainstPCP(t *testing.T) {
	// Seconds apart, the signal coming between PCP's exchanges with pmcd
	// (see TestSIGUSR2AgainstPCP).
	p, bin, dir, cfg := startPair(t, "log mandatory on 1 sec { sample.long.one }\n")
	logs := map[string]string{}
	loggers := map[string]*runningLogger{}
	names := []string{"pcp", "our"}
	for _, name := range names {
		l := mustLaunch(t, p, bin, name == "pcp", filepath.Join(dir, name), "-h", p.Host(), "-c", cfg)
		loggers[name] = l
	}
	for _, name := range names {
		waitRecords(t, loggers[name].base+".0", 2)
		loggers[name].cmd.Process.Signal(syscall.SIGHUP)
	}
	for _, name := range names {
		l := loggers[name]
		waitRecords(t, l.base+".1", 1)
		log := l.Stop()
		if name == "pcp" && strings.Contains(log, "Lost connection to PMCD") {
			t.Skipf("PCP's pmlogger lost its pmcd connection; nothing to compare with:\n%s", log)
		}
		logs[name] = maskLog(log)
		logcheck(t, p, l.base)
	}
	if testing.Verbose() {
		t.Logf("log:\n%s", logs["our"])
	}
	if logs["pcp"] != logs["our"] {
		t.Errorf("logs differ:\nPCP's:\n%s\nours:\n%s", logs["pcp"], logs["our"])
	}
}

// TestIntervalEnvAgainstPCP starts PCP's pmlogger and ours with
// PMLOGGER_INTERVAL set and a configuration logging at the default
// interval: pmlc's query shows the same interval for both.
func TestIntervalEnvAgainstPCP(t *testing.T) {
	p, bin, dir, cfg := startPair(t, "log mandatory on default { sample.long.one }\nlog advisory on default { sample.long.ten }\n")
	for _, v := range []string{"90", "2x"} {
		env := []string{"PMLOGGER_INTERVAL=" + v}
		var out []string
		for _, name := range []string{"pcp", "our"} {
			l, msg := launchEnv(t, p, bin, name == "pcp", filepath.Join(dir, name+v), env, "-h", p.Host(), "-c", cfg)
			if l == nil {
				t.Fatalf("%s pmlogger ended during start-up:\n%s", name, msg)
			}
			r := runPMLC(p, "query { sample.long.one sample.long.ten }\n", "-h", "localhost", "-p", strconv.Itoa(l.port))
			out = append(out, logInLog.ReplaceAllString(maskLog(r.Stdout+r.Stderr), "$1 $2 ?? "))
			l.Stop()
		}
		if testing.Verbose() {
			t.Logf("PMLOGGER_INTERVAL=%s:\n%s", v, out[1])
		}
		if out[0] != out[1] {
			t.Errorf("PMLOGGER_INTERVAL=%s: pmlc query:\nPCP's:\n%s\nours:\n%s", v, out[0], out[1])
		}
	}
}

// TestNotifyAgainstPCP runs PCP's pmlogger and ours with -N under a
// NOTIFY_SOCKET of the test's: each tells it READY with its pid before
// the port map file appears, and STOPPING when it ends.
func TestNotifyAgainstPCP(t *testing.T) {
	p, bin, dir, cfg := startPair(t, "log mandatory on 1 sec { sample.long.one }\n")
	got := map[string]string{}
	for _, name := range []string{"pcp", "our"} {
		sock := filepath.Join(dir, name+".notify")
		conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: sock, Net: "unixgram"})
		if err != nil {
			t.Skip(err)
		}
		l, msg := launchEnv(t, p, bin, name == "pcp", filepath.Join(dir, name), []string{"NOTIFY_SOCKET=" + sock}, "-N", "-h", p.Host(), "-c", cfg)
		if l == nil {
			t.Fatalf("%s pmlogger ended during start-up:\n%s", name, msg)
		}
		l.Stop()
		// Both messages were sent before the logger ended.
		conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		buf := make([]byte, 512)
		for {
			n, err := conn.Read(buf)
			if err != nil {
				break
			}
			got[name] += strings.ReplaceAll(string(buf[:n]), strconv.Itoa(l.pid), "PID") + "|"
			if strings.HasPrefix(string(buf[:n]), "STOPPING") {
				break
			}
		}
		conn.Close()
	}
	if testing.Verbose() {
		t.Logf("messages: %q", got["our"])
	}
	if got["pcp"] != got["our"] {
		t.Errorf("service manager messages: PCP's %q, ours %q", got["pcp"], got["our"])
	}
}

// TestSignalsAgainstPCP ends PCP's pmlogger and ours with SIGUSR1 and
// SIGTERM, which PCP's treats as SIGINT, after a SIGTSTP it ignores: the
// same log (the signal named), archives pmlogcheck passes, no port map
// file left.
func TestSignalsAgainstPCP(t *testing.T) {
	p, bin, dir, cfg := startPair(t, "log mandatory on 1 sec { sample.long.one }\n")
	for _, sig := range []syscall.Signal{syscall.SIGUSR1, syscall.SIGTERM} {
		logs := map[string]string{}
		loggers := map[string]*runningLogger{}
		names := []string{"pcp", "our"}
		for _, name := range names {
			l, msg := launch(t, p, bin, name == "pcp", filepath.Join(dir, name+strconv.Itoa(int(sig))), "-h", p.Host(), "-c", cfg)
			if l == nil {
				t.Fatalf("%s pmlogger ended during start-up:\n%s", name, msg)
			}
			loggers[name] = l
		}
		for _, name := range names {
			l := loggers[name]
			waitRecords(t, l.base+".0", 2)
			l.cmd.Process.Signal(syscall.SIGTSTP)
			l.cmd.Process.Signal(sig)
		}
		for _, name := range names {
			l := loggers[name]
			select {
			case <-l.done:
				l.stopped = true
			case <-time.After(30 * time.Second):
				t.Fatalf("%s pmlogger still running 30 s after signal %d", name, sig)
			}
			data, _ := os.ReadFile(l.log)
			logs[name] = maskLog(string(data))
			if name == "pcp" && strings.Contains(logs[name], "Lost connection to PMCD") {
				t.Skipf("PCP's pmlogger lost its pmcd connection; nothing to compare with:\n%s", logs[name])
			}
			logcheck(t, p, l.base)
			if _, err := os.Stat(l.mapFile); err == nil {
				t.Errorf("%s pmlogger left %s", name, l.mapFile)
			}
		}
		if logs["pcp"] != logs["our"] {
			t.Errorf("signal %d: logs differ:\nPCP's:\n%s\nours:\n%s", sig, logs["pcp"], logs["our"])
		}
	}
}

// startPair is what each comparison of PCP's pmlogger with ours starts
// from: a private pmcd, our pmlogger built, a directory and in it a
// configuration file holding config. The comparisons wait on daemons,
// not CPUs, so each runs beside the others.
func startPair(t *testing.T, config string) (p *testbed.PMCD, bin, dir, cfg string) {
	t.Helper()
	t.Parallel()
	p = testbed.StartPMCD(t, testbed.Options{})
	bin = pcptest.GoCommand(t, ".")
	dir = t.TempDir()
	cfg = filepath.Join(dir, "config")
	if err := os.WriteFile(cfg, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	return p, bin, dir, cfg
}

// logcheck fails t unless PCP's pmlogcheck passes archive without a word.
func logcheck(t *testing.T, p *testbed.PMCD, archive string) {
	t.Helper()
	if r := p.Run("pmlogcheck", archive); r.Err != nil || r.Stdout+r.Stderr != "" {
		t.Errorf("pmlogcheck %s: %v\n%s%s", archive, r.Err, r.Stdout, r.Stderr)
	}
}

// mustLaunch starts PCP's pmlogger (pcp) or ours as launch does; a PCP
// logger that ends during start-up leaves nothing to compare with and
// skips the test, ours failing to start fails it.
func mustLaunch(t *testing.T, p *testbed.PMCD, bin string, pcp bool, base string, args ...string) *runningLogger {
	t.Helper()
	l, msg := launch(t, p, bin, pcp, base, args...)
	if l == nil {
		if pcp {
			t.Skipf("PCP's pmlogger ended during start-up:\n%s", msg)
		}
		t.Fatalf("our pmlogger ended during start-up:\n%s", msg)
	}
	return l
}

// TestCoreSignalsAgainstPCP sends PCP's pmlogger and ours SIGXFSZ and
// SIGXCPU, which PCP's takes as its "core" signals: both remove their
// port map file and exit at once with the signal's number as the status,
// leaving the same log (no "Log finished") but for the C call traceback
// PCP's writes (libpcp's __pmDumpStack: addresses in its own binary and
// libraries, nothing a Go program has), which is cut from its log.
func TestCoreSignalsAgainstPCP(t *testing.T) {
	p, bin, dir, cfg := startPair(t, "log mandatory on 1 sec { sample.long.one }\n")
	for _, sig := range []syscall.Signal{syscall.SIGXFSZ, syscall.SIGXCPU} {
		logs, codes := map[string]string{}, map[string]int{}
		names := []string{"pcp", "our"}
		loggers := map[string]*runningLogger{}
		for _, name := range names {
			l, msg := launch(t, p, bin, name == "pcp", filepath.Join(dir, "core"+name+strconv.Itoa(int(sig))), "-h", p.Host(), "-c", cfg)
			if l == nil {
				t.Fatalf("%s pmlogger ended during start-up:\n%s", name, msg)
			}
			loggers[name] = l
		}
		for _, name := range names {
			l := loggers[name]
			waitRecords(t, l.base+".0", 2)
			l.cmd.Process.Signal(sig)
		}
		for _, name := range names {
			l := loggers[name]
			select {
			case <-l.done:
				l.stopped = true
			case <-time.After(30 * time.Second):
				t.Fatalf("%s pmlogger still running 30 s after signal %d", name, sig)
			}
			codes[name] = l.cmd.ProcessState.ExitCode()
			data, _ := os.ReadFile(l.log)
			logs[name] = maskLog(cTraceback.ReplaceAllString(string(data), ""))
			if _, err := os.Stat(l.mapFile); err == nil {
				t.Errorf("%s pmlogger left %s", name, l.mapFile)
			}
		}
		if !strings.Contains(logs["pcp"], "Archive basename:") {
			t.Fatalf("PCP's pmlogger log:\n%s", logs["pcp"])
		}
		if codes["pcp"] != int(sig) {
			t.Errorf("signal %d: PCP's pmlogger exited with %d", sig, codes["pcp"])
		}
		if codes["our"] != codes["pcp"] || logs["pcp"] != logs["our"] {
			t.Errorf("signal %d: PCP's exit %d, log:\n%s\nours: exit %d, log:\n%s", sig, codes["pcp"], logs["pcp"], codes["our"], logs["our"])
		}
	}
}

// cTraceback is libpcp's __pmDumpStack output: a heading, the text
// segment's bounds and a line per frame.
var cTraceback = regexp.MustCompile(`(?m)^Procedure call traceback \.\.\.\n(?:executable text segment:.*\n)?(?:  .*\n)*`)
