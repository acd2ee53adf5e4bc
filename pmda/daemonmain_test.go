package pmda

import (
	"context"
	"errors"
	"flag"
	"log"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
