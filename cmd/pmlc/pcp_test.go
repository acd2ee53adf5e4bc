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

func TestMain(m *testing.M) { os.Exit(testbed.Main(m)) }

// logger is a pmlogger (PCP's or ours) started for a comparison.
type logger struct {
	cmd       *exec.Cmd
	pid, port int
	log       string
	done      chan struct{}
}

// startLogger starts PCP's pmlogger (ourBin "") or ours on config and
// waits for its port map file.
func startLogger(t *testing.T, p *testbed.PMCD, ourBin, dir, name, config string) *logger {
	t.Helper()
	cfg := filepath.Join(dir, name+".config")
	if err := os.WriteFile(cfg, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	l := &logger{log: filepath.Join(dir, name+".log"), done: make(chan struct{})}
	args := []string{"-l", l.log, "-h", p.Host(), "-c", cfg, filepath.Join(dir, name)}
	if ourBin == "" {
		c, err := p.Command(context.Background(), "pmlogger", args...)
		if err != nil {
			t.Skip(err)
		}
		l.cmd = c
	} else {
		l.cmd = exec.Command(ourBin, args...)
		l.cmd.Env = p.Env()
	}
	port, release, err := testbed.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	l.cmd.Env = append(l.cmd.Env, "PMLOGGER_PORT="+strconv.Itoa(port))
	if err := l.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	l.pid = l.cmd.Process.Pid
	go func() { l.cmd.Wait(); close(l.done) }()
	t.Cleanup(l.stop)
	mapFile := filepath.Join(bedVar(p, "PCP_TMP_DIR"), "pmlogger", strconv.Itoa(l.pid))
	for deadline := time.Now().Add(testbed.WaitBound(t)); ; time.Sleep(20 * time.Millisecond) {
		if b, err := os.ReadFile(mapFile); err == nil && bytes.Count(b, []byte("\n")) >= 3 {
			l.port, _ = strconv.Atoi(string(b[:bytes.IndexByte(b, '\n')]))
			return l
		}
		select {
		case <-l.done:
			data, _ := os.ReadFile(l.log)
			t.Fatalf("logger ended at start:\n%s", data)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no port map file %s", mapFile)
		}
	}
}

// stop ends the logger with SIGINT (SIGKILL after 10 s) and waits.
func (l *logger) stop() {
	l.cmd.Process.Signal(os.Interrupt)
	select {
	case <-l.done:
	case <-time.After(10 * time.Second):
		l.cmd.Process.Kill()
		<-l.done
	}
}

func bedVar(p *testbed.PMCD, name string) string {
	for _, e := range p.Env() {
		if v, ok := strings.CutPrefix(e, name+"="); ok {
			return v
		}
	}
	return ""
}

// outcome is what a pmlc run printed and its exit status.
type outcome struct {
	stdout, stderr string
	code           int
}

// runPCP runs PCP's pmlc; runOurs ours. Both try again while the logger
// still turns them away (it serves one client at a time and may not yet
// have seen the previous one go).
func runPCP(p *testbed.PMCD, input string, args ...string) outcome {
	var r testbed.Result
	for try := 0; try < 100; try++ {
		r = p.RunInput([]byte(input), "pmlc", args...)
		if !strings.Contains(r.Stdout+r.Stderr, "Address already in use") {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	return outcome{r.Stdout, r.Stderr, r.ExitCode}
}

func runOurs(t *testing.T, p *testbed.PMCD, bin, input string, args ...string) outcome {
	var o outcome
	for try := 0; try < 100; try++ {
		o = runTool(t, bin, p.Env(), input, args...)
		if !strings.Contains(o.stdout+o.stderr, "Address already in use") {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	return o
}

var (
	// What differs between any two runs: times, pids, ports, sizes,
	// archive names.
	maskDate   = regexp.MustCompile(`[A-Z][a-z][a-z] [A-Z][a-z][a-z] [ \d]\d \d\d:\d\d:\d\d(\.\d+)?( \d{4})?`)
	maskPID    = regexp.MustCompile(`(pmlogger[(.]|pid |pmlogger \[|running on [^:]*:\n   ) ?\d+`)
	maskPort   = regexp.MustCompile(`port \d+`)
	maskLines  = regexp.MustCompile(`(?m)^(log size|Archive basename:|archive:?) .*$`)
	maskInLog  = regexp.MustCompile(`(mand|adv ) (on |off) *(nl|na)? +`)
	maskBedDir = regexp.MustCompile(`/[^ \n]*/(pcp|ours)(\.\w+)?`)
)

func mask(s string) string {
	s = maskDate.ReplaceAllString(s, "DATE")
	s = maskPID.ReplaceAllString(s, "${1}PID")
	s = maskPort.ReplaceAllString(s, "port PORT")
	s = maskLines.ReplaceAllString(s, "$1 X")
	s = maskBedDir.ReplaceAllString(s, "ARCHIVE")
	// whether a newly asked-for metric has been fetched yet races
	// with the query in every logger
	return maskInLog.ReplaceAllString(s, "$1 $2 ?? ")
}

// script is one pmlc run: its input and how it reaches the logger
// ("PORT" and "PID" stand for the logger's).
type script struct {
	name  string
	args  []string
	input string
}

func (s script) argv(l *logger) []string {
	var a []string
	for _, x := range s.args {
		x = strings.ReplaceAll(x, "PORT", strconv.Itoa(l.port))
		a = append(a, strings.ReplaceAll(x, "PID", strconv.Itoa(l.pid)))
	}
	return a
}

var tcp = []string{"-h", "localhost", "-p", "PORT"}

// TestAgainstPCP runs each script through PCP's pmlc and ours, each
// against its own logger of one kind (PCP's pmlogger, then ours) on the
// same configuration and pmcd, and compares stdout, stderr and exit
// status (masked), then the two loggers' logs.
func TestAgainstPCP(t *testing.T) {
	// Waits on daemons, not CPUs: run beside the other comparisons.
	t.Parallel()
	p := testbed.StartPMCD(t, testbed.Options{})
	ours := pcptest.GoCommand(t, ".")
	ourLogger := pcptest.GoCommand(t, "../pmlogger")
	config := "log mandatory on 1 sec { sample.long.one sample.colour }\n" +
		"log mandatory off { sample.long.ten }\n" +
		"log advisory on 2 sec { sample.bin[\"bin-100\"] }\n" +
		"[access]\nallow localhost : all except mandatory;\nallow * : all;\n"
	scripts := []script{
		{"status", tcp, "status\n"},
		{"status local", []string{"-h", "local:", "PID"}, "status\ntimezone \"UTC\"\nstatus\ntimezone logger\nstatus\n"},
		{"query", tcp, "query { sample.long sample.colour sample.bin }\nquery sample.colour[red blue]\nquery sample.bin[\"bin-200\", 300]\n"},
		{"log advisory", tcp, "log advisory on 2 sec sample.long.hundred\nquery sample.long.hundred\n" +
			"log advisory on once sample.long.million\nadvisory off sample.long.hundred\nquery sample.long\n"},
		{"log refused", tcp, "log mandatory on 500 msec sample.long.ten\nlog advisory on 1 sec sample.long.one\n"},
		{"log local", []string{"-h", "local:", "PID"}, "log mandatory on 1 min sample.colour[red]\nlog mandatory maybe sample.long.ten\n" +
			"log mandatory off sample.bin[bin-100]\nlog advisory on 1 hour sample.bin\nquery { sample.colour sample.bin sample.long.ten }\n"},
		{"intervals", tcp, "log advisory on 1500 msec sample.long.one\nlog advisory on every 90 sec sample.long.ten\n" +
			"log advisory on 0 sec sample.long.hundred\nlog advisory on 100000 hours sample.long.million\nquery sample.long\n"},
		{"bad metrics", tcp, "query sample.nosuch\nquery { sample.long.one, sample.nosuch }\nlog advisory on 1 sec sample.colour[purple]\n" +
			"query { sample.colour sample.long.one }[red]\nquery sample.long.one[1]\nquery { sample.colour[red] sample.colour }\n" +
			"query { sample.bin sample.bin[bin-100] }\nquery sample.colour[red red]\n"},
		{"syntax", tcp, "log sometimes sample.long.one\nquery\nquery { sample.long.one\nsample.colour }\nlog advisory on sample.long.one\n" +
			"log advisory on 1 fortnight sample.long.one\nquery sample.long.one extra\nstatus now\nnew\nconnect\n!\n\"\"\n# comment\n\nhelp\n"},
		{"new volume", tcp, "new volume\nsync\nflush\nstatus\n"},
		{"new volume local", []string{"-h", "local:", "PID"}, "new volume\nstatus\nquit\nstatus\n"},
		{"disconnect", tcp, "disconnect\nstatus\nquery sample.long.one\nconnect PID\nstatus\nshow loggers\n"},
		{"echo", append([]string{"-e"}, tcp...), "status\nquery sample.long.one\n"},
		{"interactive", append([]string{"-i"}, tcp...), "query { sample.long.one\nsample.colour }\nstatus\n"},
		{"no logger", nil, "status\nconnect 1\nconnect port 1\nconnect primary\nconnect socket @unix:/nonexistent\nconnect 1 @unix:\nquery sample.long.one\n"},
		{"no pid", []string{"-h", "localhost", "-p", "1"}, "status\n"},
		{"bad options", []string{"-p", "x", "abc"}, ""},
		{"bad pid", []string{"12z"}, ""},
		{"primary", []string{"-P"}, "status\n"},
		{"subtree", tcp, "query sample.long\nquery sample.dynamic\nquery { sample.long.one sample.long.one }\nquery sample.bin[bin-100]\n" +
			"query { sample.long.one\n!\nsample.colour }\nquery { sample.colour[red] sample.colour[blue] }\nlog advisory on 1 sec { sample.long }\n"},
		{"zones", append([]string{"-z"}, tcp...), "status\ntimezone local\nstatus\n"},
		{"zone named", append([]string{"-Z", "EST-10"}, tcp...), "status\ntimezone \":Europe/Berlin\"\nstatus\n"},
	}
	for _, kind := range []struct {
		name string
		bin  string
	}{{"PCP's pmlogger", ""}, {"our pmlogger", ourLogger}} {
		t.Run(kind.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			theirs := startLogger(t, p, kind.bin, dir, "pcp", config)
			mine := startLogger(t, p, kind.bin, dir, "ours", config)
			for _, s := range scripts {
				// each against its own logger: both at once
				var want outcome
				done := make(chan struct{})
				go func() { defer close(done); want = runPCP(p, s.input, s.argv(theirs)...) }()
				got := runOurs(t, p, ours, s.input, s.argv(mine)...)
				<-done
				if strings.Contains(want.stderr, "Lost connection") || want.code < 0 {
					t.Skipf("PCP's pmlc at %s: %q", s.name, want.stderr)
				}
				for _, c := range []struct{ what, want, got string }{
					{"stdout", want.stdout, got.stdout}, {"stderr", want.stderr, got.stderr},
				} {
					if w, g := mask(c.want), mask(c.got); w != g {
						t.Errorf("%s: %s differs:\nPCP's pmlc:\n%s\nours:\n%s", s.name, c.what, w, g)
					}
				}
				if testing.Verbose() {
					t.Logf("%s: status %d\n%s%s", s.name, got.code, mask(got.stdout), mask(got.stderr))
				}
				if want.code != got.code {
					t.Errorf("%s: exit status %d, PCP's %d", s.name, got.code, want.code)
				}
			}
			theirs.stop()
			mine.stop()
			a, _ := os.ReadFile(theirs.log)
			b, _ := os.ReadFile(mine.log)
			if w, g := mask(string(a)), mask(string(b)); w != g {
				t.Errorf("logs differ:\nafter PCP's pmlc:\n%s\nafter ours:\n%s", w, g)
			}
		})
	}
}
