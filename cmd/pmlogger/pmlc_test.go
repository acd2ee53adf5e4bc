package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// runningLogger is a pmlogger (PCP's or ours) started for a comparison.
type runningLogger struct {
	cmd       *exec.Cmd
	pid, port int
	log, base string
	mapFile   string
	stopped   bool
	stopFn    func()
	done      chan error // Wait's result
}

// freePortBase is a port to start pmlogger's search for a control port
// from; both loggers search upwards, so one base serves both. It is one
// of testbed's private ports, reserved until the test ends (the logger's
// own cleanup, registered later, runs first): a ":0" port closed again
// lies in the kernel's ephemeral range, where another program may take
// it before the logger binds it, and PCP's pmlogger then binds the next
// port for one address family only.
func freePortBase(t *testing.T) int {
	t.Helper()
	port, release, err := testbed.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	return port
}

// bedDir is one of the bed's private PCP directories.
func bedDir(p *testbed.PMCD, name string) string {
	for _, e := range p.Env() {
		if v, ok := strings.CutPrefix(e, name+"="); ok {
			return v
		}
	}
	return ""
}

// launch starts PCP's pmlogger (pcp) or ours with args and the archive
// base, and waits for its port map file. It returns nil, with the log,
// when the logger ends during start-up.
func launch(t *testing.T, p *testbed.PMCD, bin string, pcp bool, base string, args ...string) (*runningLogger, string) {
	t.Helper()
	return launchEnv(t, p, bin, pcp, base, nil, args...)
}

// launchEnv is launch with more environment variables.
func launchEnv(t *testing.T, p *testbed.PMCD, bin string, pcp bool, base string, env []string, args ...string) (*runningLogger, string) {
	t.Helper()
	l := &runningLogger{log: base + ".log", base: base}
	all := append([]string{"-l", l.log}, args...)
	all = append(all, base)
	if pcp {
		c, err := p.Command(context.Background(), "pmlogger", all...)
		if err != nil {
			t.Skip(err)
		}
		l.cmd = c
	} else {
		l.cmd = exec.Command(bin, all...)
		l.cmd.Env = p.Env()
	}
	l.cmd.Env = append(append(l.cmd.Env, "PMLOGGER_PORT="+strconv.Itoa(freePortBase(t))), env...)
	var out bytes.Buffer
	l.cmd.Stdout, l.cmd.Stderr = &out, &out
	if err := l.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	l.pid = l.cmd.Process.Pid
	done := make(chan error, 1)
	l.done = done
	go func() { done <- l.cmd.Wait() }()
	t.Cleanup(func() { l.stop(done) })
	l.mapFile = filepath.Join(bedDir(p, "PCP_TMP_DIR"), "pmlogger", strconv.Itoa(l.pid))
	for deadline := time.Now().Add(30 * time.Second); ; {
		select {
		case <-done:
			l.stopped = true
			data, _ := os.ReadFile(l.log)
			return nil, out.String() + string(data)
		default:
		}
		if b, err := os.ReadFile(l.mapFile); err == nil && bytes.Count(b, []byte("\n")) >= 3 {
			l.port, _ = strconv.Atoi(string(b[:bytes.IndexByte(b, '\n')]))
			break
		}
		if time.Now().After(deadline) {
			data, _ := os.ReadFile(l.log)
			t.Fatalf("no port map file %s:\n%s", l.mapFile, data)
		}
		time.Sleep(20 * time.Millisecond)
	}
	l.stopFn = func() { l.stop(done) }
	return l, ""
}

// stop ends the logger with SIGINT (SIGKILL after 10 s) and waits.
func (l *runningLogger) stop(done chan error) {
	if l.stopped {
		return
	}
	l.stopped = true
	l.cmd.Process.Signal(os.Interrupt)
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		l.cmd.Process.Kill()
		<-done
	}
}

// Exited reports whether the logger has ended.
func (l *runningLogger) Exited() bool {
	select {
	case err := <-l.done:
		l.done <- err
		return true
	default:
		return false
	}
}

// Stop ends the logger and returns its log.
func (l *runningLogger) Stop() string {
	l.stopFn()
	data, _ := os.ReadFile(l.log)
	return string(data)
}

var (
	// Masks for what differs between any two runs: times, process ids,
	// ports, archive names.
	logDate   = regexp.MustCompile(`[A-Z][a-z][a-z] [A-Z][a-z][a-z] [ \d]\d \d\d:\d\d:\d\d( \d{4})?`)
	logPID    = regexp.MustCompile(`(pmlogger[(.]|pid |pmlogger \[)\d+`)
	logPort   = regexp.MustCompile(`port \d+`)
	logArch   = regexp.MustCompile(`(?m)^Archive basename: .*$`)
	logStatus = regexp.MustCompile(`(?m)^(log size|last log entry|current time|log started|archive:?) .*$`)
	logInLog  = regexp.MustCompile(`(mand|adv ) (on |off) *(nl|na)? +`)
)

func maskLog(s string) string {
	s = logDate.ReplaceAllString(s, "DATE")
	s = logPID.ReplaceAllString(s, "${1}PID")
	s = logPort.ReplaceAllString(s, "port PORT")
	s = logStatus.ReplaceAllString(s, "$1 X")
	return logArch.ReplaceAllString(s, "Archive basename: X")
}

// runPMLC runs PCP's pmlc with input, again while the logger still
// answers EADDRINUSE: it serves one client at a time and may not yet
// have seen the previous one go (PCP's does this under load).
func runPMLC(p *testbed.PMCD, input string, args ...string) testbed.Result {
	var r testbed.Result
	for try := 0; try < 100; try++ {
		r = p.RunInput([]byte(input), "pmlc", args...)
		if !strings.Contains(r.Stdout+r.Stderr, "Address already in use") {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	return r
}

// pmlcScript is pmlc's input and how to reach the logger: over TCP
// (pmlc -h localhost -p PORT) or its Unix socket (pmlc -h local: PID).
type pmlcScript struct {
	local bool
	input string
}

// TestPMLCRequestsAgainstPCP runs PCP's pmlogger and ours on the same
// configuration (mandatory off statements and an [access] section among
// them) and pmcd, gives each the same pmlc scripts over TCP and over the
// Unix-domain socket, and compares what pmlc prints and then the
// loggers' whole logs: the header, the "pmlc request from" paragraphs
// with their metrics, instances and "[request failed]" marks, refusals
// with PCP's error, and the footer (times, pids, ports, archive names
// and the Unix socket's pid masked).
func TestPMLCRequestsAgainstPCP(t *testing.T) {
	// Waits on daemons, not CPUs: run beside the other comparisons.
	t.Parallel()
	p := testbed.StartPMCD(t, testbed.Options{})
	bin := pcptest.GoCommand(t, ".")
	for _, c := range []struct {
		name, config string
		scripts      []pmlcScript
	}{
		{"requests", "log mandatory on 1 sec { sample.long.one sample.colour }\n" +
			"log mandatory off { sample.long.ten sample.bin }\n" +
			"log advisory off { sample.long.hundred }\n" +
			"[access]\ndisallow 127.0.0.1 : mandatory;\nallow * : all;\n",
			[]pmlcScript{
				{false, "query { sample.long sample.bin sample.colour }\n"},
				{false, "log mandatory on 2 sec sample.long.ten\n"},
				{false, "log advisory on 2 sec sample.long.ten\n"},
				{false, "log advisory on 2 sec { sample.colour[red] sample.long.hundred }\n"},
				{false, "log advisory on once sample.long.million\n"},
				{false, "new volume\n"},
				{true, "log mandatory on 500 msec sample.long.ten\n"},
				{true, "log mandatory off sample.colour[red]\n"},
				{true, "log advisory off sample.bin[bin-100]\n"},
				{true, "log mandatory maybe sample.long.ten\n"},
				{true, "log mandatory on once sample.bin[\"bin-200\"]\n"},
				{true, "log advisory on 2 sec sample.bin\n"},
				{true, "log mandatory on 1 sec sample.bin[bin-300 bin-400]\n"},
				{true, "log advisory off sample.long.hundred\n"},
				{true, "query { sample.long sample.bin sample.colour }\n"},
			}},
		{"deny all", "log mandatory on 1 sec { sample.long.one }\n[access]\ndisallow * : all;\n",
			[]pmlcScript{{false, "status\n"}, {true, "query sample.long.one\n"}}},
		{"enquire only", "log mandatory on 1 sec { sample.long.one }\n[access]\ndisallow * : advisory, mandatory;\n",
			[]pmlcScript{
				{false, "query sample.long.one\nlog advisory on 1 sec sample.long.ten\n"},
				{false, "new volume\n"},
				{true, "log mandatory off sample.long.one\nquery sample.long.one\n"},
			}},
		{"all except mandatory", "log mandatory on 1 sec { sample.long.one }\n[access]\nallow * : all except mandatory;\n",
			[]pmlcScript{
				{false, "log advisory on 1 sec sample.long.ten\nlog mandatory on 1 sec sample.long.hundred\n"},
				{true, "new volume\nlog advisory off sample.long.ten\n"},
			}},
		{"clash", "log mandatory on 1 sec { sample.long.one }\n[access]\ndisallow local: : all except enquire;\nallow 127.0.0.1 : all;\n", nil},
		{"local socket denied", "log mandatory on 1 sec { sample.long.one }\n[access]\ndisallow unix: : all except enquire;\nallow * : all;\n",
			[]pmlcScript{
				{true, "log advisory on 1 sec sample.long.ten\nquery sample.long.ten\n"},
				{false, "log advisory on 1 sec sample.long.ten\n"},
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			cfg := filepath.Join(dir, "config")
			if err := os.WriteFile(cfg, []byte(c.config), 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{"-h", p.Host(), "-c", cfg}
			// Archive names of one length, for the status' sizes.
			theirs, pcpMsg := launch(t, p, bin, true, filepath.Join(dir, "pcp"), args...)
			ours, msg := launch(t, p, bin, false, filepath.Join(dir, "our"), args...)
			if theirs == nil || ours == nil {
				// A configuration one refuses, the other must too.
				if want, got := maskLog(pcpMsg), maskLog(msg); want != got {
					t.Fatalf("start-up:\nPCP's:\n%s\nours:\n%s", want, got)
				}
				return
			}
			ask := func(l *runningLogger, s pmlcScript) string {
				a := []string{"-h", "localhost", "-p", strconv.Itoa(l.port)}
				if s.local {
					a = []string{"-h", "local:", strconv.Itoa(l.pid)}
				}
				r := runPMLC(p, s.input, a...)
				return maskLog(r.Stdout + r.Stderr)
			}
			for _, s := range c.scripts {
				want := ask(theirs, s)
				if strings.Contains(want, "Lost connection to the pmlogger") || strings.Contains(want, "Unable to connect to pmlogger") && !strings.Contains(want, "permission") {
					t.Skipf("PCP's pmlogger went away at %q:\n%s", s.input, want)
				}
				got := ask(ours, s)
				// Whether a newly requested metric has been fetched
				// yet races with the query in both loggers.
				want, got = logInLog.ReplaceAllString(want, "$1 $2 ?? "), logInLog.ReplaceAllString(got, "$1 $2 ?? ")
				// (PCP's history takes in only the first new metric of
				// each fetch, so right after a start the column differs
				// too; see docs/pmlogger.md.)
				if want != got {
					t.Errorf("pmlc %q (local %v):\nPCP's pmlogger:\n%s\nours:\n%s", s.input, s.local, want, got)
				}
			}
			want, got := maskLog(theirs.Stop()), maskLog(ours.Stop())
			if testing.Verbose() {
				t.Logf("log:\n%s", got)
			}
			if want != got {
				t.Errorf("logs differ:\nPCP's:\n%s\nours:\n%s\nfirst difference: %s", want, got, firstDiff(want, got))
			}
			if _, err := os.Stat(ours.mapFile); err == nil {
				t.Errorf("our port map file %s left behind", ours.mapFile)
			}
		})
	}
}
