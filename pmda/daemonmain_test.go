package pmda

import (
	"context"
	"errors"
	"flag"
	"log"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/ownfile"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// TestDaemonMain runs an agent's main body through its ways out: bad
// options, a stray argument, an unopenable log, a failing build, and a pmcd
// that hangs up before the handshake.
func TestDaemonMain(t *testing.T) {
	dir := t.TempDir()
	logPath := filepath.Join(dir, "x.log")
	var built uint32
	good := func(o *DaemonOptions) func(*log.Logger) (*Agent, error) {
		return func(*log.Logger) (*Agent, error) {
			built = o.Domain
			return New(Config{Name: "x", Domain: o.Domain, Fetcher: &testFetcher{}})
		}
	}
	failing := func(*DaemonOptions) func(*log.Logger) (*Agent, error) {
		return func(*log.Logger) (*Agent, error) { return nil, errors.New("no such device") }
	}
	for _, tc := range []struct {
		name      string
		args      []string
		build     func(*DaemonOptions) func(*log.Logger) (*Agent, error)
		stderr    string // wanted in standard error
		log       string // wanted in the log
		wantBuilt uint32
	}{
		{"bad option", []string{"-x"}, good, "flag provided but not defined: -x", "", 0},
		{"stray argument", []string{"-l", logPath, "extra"}, good, `x: unexpected argument "extra"`, "", 0},
		{"unopenable log", []string{"-l", filepath.Join(dir, "no", "such.log")}, good, "x: open ", "", 0},
		{"build fails", []string{"-l", logPath}, failing, "", "no such device", 0},
		{"pmcd hangs up", []string{"-l", logPath, "-d", "42"}, good, "", "started, domain 42", 42},
	} {
		os.Remove(logPath)
		built = 0
		o := DaemonOptions{Domain: 250, LogFile: "x.log"}
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		o.Flags(fs)
		var stderr, stdout strings.Builder
		status := o.main(context.Background(), fs, tc.args, tc.build(&o), strings.NewReader(""), &stdout, &stderr)
		if status != 1 {
			t.Errorf("%s: exit status %d, want 1", tc.name, status)
		}
		if !strings.Contains(stderr.String(), tc.stderr) {
			t.Errorf("%s: standard error %q lacks %q", tc.name, stderr.String(), tc.stderr)
		}
		logText, _ := os.ReadFile(logPath)
		if !strings.Contains(string(logText), tc.log) {
			t.Errorf("%s: log %q lacks %q", tc.name, logText, tc.log)
		}
		if built != tc.wantBuilt {
			t.Errorf("%s: agent built for domain %d, want %d", tc.name, built, tc.wantBuilt)
		}
		if tc.name == "pmcd hangs up" && !strings.Contains(string(logText), "handshake") {
			t.Errorf("%s: log %q does not report the failed handshake", tc.name, logText)
		}
	}
}

// TestDaemonLogBeside: an agent's log is started as PCP's agents start
// theirs, the old one moved aside to .prev, never truncated; and a log
// another live process writes (the same agent under another pmcd) is left
// as it is, the agent logging to standard error instead.
func TestDaemonLogBeside(t *testing.T) {
	for _, held := range []bool{false, true} {
		dir := t.TempDir()
		logPath := filepath.Join(dir, "x.log")
		if err := os.WriteFile(logPath, []byte("the old log\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if held {
			pcptest.HoldOpen(t, logPath, false)
		}
		o := DaemonOptions{Domain: 250}
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		o.Flags(fs)
		var stderr, stdout strings.Builder
		build := func(*log.Logger) (*Agent, error) {
			return New(Config{Name: "x", Domain: o.Domain, Fetcher: &testFetcher{}})
		}
		o.main(context.Background(), fs, []string{"-l", logPath}, build, strings.NewReader(""), &stdout, &stderr)
		logText, _ := os.ReadFile(logPath)
		prev, perr := os.ReadFile(logPath + ".prev")
		if held {
			if string(logText) != "the old log\n" || !errors.Is(perr, os.ErrNotExist) {
				t.Errorf("held log changed: %q, .prev %q %v", logText, prev, perr)
			}
			if !strings.Contains(stderr.String(), "holds it open") || !strings.Contains(stderr.String(), "started, domain 250") {
				t.Errorf("standard error:\n%s", stderr.String())
			}
			continue
		}
		if string(prev) != "the old log\n" || !strings.Contains(string(logText), "started, domain 250") || strings.Contains(string(logText), "the old log") {
			t.Errorf("log %q, .prev %q", logText, prev)
		}
	}
}

// TestDaemonSocketBeside: a -u socket another agent accepts on is left to
// it and the agent does not start; one left by an agent gone is
// replaced, and removed when the agent ends.
func TestDaemonSocketBeside(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "x.socket")
	live, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(Config{Name: "x", Domain: 250, Fetcher: &testFetcher{}})
	if err != nil {
		t.Fatal(err)
	}
	o := DaemonOptions{Domain: 250, Socket: sock}
	if err := o.Run(context.Background(), a, nil, nil); !errors.Is(err, ownfile.ErrInUse) {
		t.Errorf("Run on a live socket: %v, want ErrInUse", err)
	}
	if c, err := net.Dial("unix", sock); err != nil {
		t.Errorf("the live socket no longer answers: %v", err)
	} else {
		c.Close()
	}
	live.(*net.UnixListener).SetUnlinkOnClose(false)
	live.Close()

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- o.Run(ctx, a, nil, nil) }()
	// Once the stale socket is replaced, connecting succeeds.
	for {
		c, err := net.Dial("unix", sock)
		if err == nil {
			c.Close()
			break
		}
		select {
		case err := <-done:
			t.Fatalf("Run: %v", err)
		case <-time.After(20 * time.Millisecond):
		}
	}
	cancel()
	<-done
	if _, err := os.Lstat(sock); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("socket left behind: %v", err)
	}
}

// TestDaemonPortTaken: an agent whose -i port is taken fails before it
// touches its log, which stays as the running copy left it.
func TestDaemonPortTaken(t *testing.T) {
	taken, err := net.Listen("tcp", ":0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	logPath := filepath.Join(t.TempDir(), "x.log")
	if err := os.WriteFile(logPath, []byte("the running agent's log\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := DaemonOptions{Domain: 250}
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	o.Flags(fs)
	var stderr, stdout strings.Builder
	build := func(*log.Logger) (*Agent, error) {
		return New(Config{Name: "x", Domain: o.Domain, Fetcher: &testFetcher{}})
	}
	port := strconv.Itoa(taken.Addr().(*net.TCPAddr).Port)
	if status := o.main(context.Background(), fs, []string{"-l", logPath, "-i", port}, build, strings.NewReader(""), &stdout, &stderr); status != 1 {
		t.Errorf("exit status %d, want 1", status)
	}
	if !strings.Contains(stderr.String(), "address already in use") {
		t.Errorf("standard error: %q", stderr.String())
	}
	logText, _ := os.ReadFile(logPath)
	if _, err := os.Stat(logPath + ".prev"); string(logText) != "the running agent's log\n" || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("log touched: %q, .prev: %v", logText, err)
	}
}
