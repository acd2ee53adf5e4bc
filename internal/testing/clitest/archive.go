package clitest

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// QAArchives is where Debian's pcp-testsuite puts PCP's QA archives.
const QAArchives = "/var/lib/pcp/testsuite/archives"

// QAArchive returns the path of a QA archive (its base name) or
// directory of archives, skipping
// or failing t as pcptest.Missing says when the archives are absent.
func QAArchive(t testing.TB, name string) string {
	t.Helper()
	p := filepath.Join(QAArchives, name)
	if st, err := os.Stat(p); err == nil && st.IsDir() {
		return p
	}
	if m, _ := filepath.Glob(p + ".meta*"); len(m) == 0 {
		pcptest.Missing(t, "QA archive "+name+" is not installed (pcp-testsuite)")
	}
	return p
}

// ArchiveEnv is the environment both sides of an archive comparison run
// in: a fixed local zone and no default derived metrics.
var ArchiveEnv = []string{"TZ=UTC", "PCP_DERIVED_CONFIG="}

// CompareLocal runs every case with PCP's tool and with ours, without a
// pmcd (archives, or options that need no source), in ArchiveEnv and the
// case's Env, and compares stdout, stderr and the exit status. Cases run one after the
// other: the tools set the process's zone, as libpcp does.
func CompareLocal(t *testing.T, tool string, main Main, cases []Case) {
	t.Helper()
	compareLocal(t, tool, main, cases, false)
}

// CompareDamaged is CompareLocal for damaged archives: ours runs inside
// Bounded, so a loop that never ends fails the run, and PCP's with a
// time limit; a case where PCP's tool hangs or dies of a signal (as it
// does on some damaged archives) is logged and not compared.
func CompareDamaged(t *testing.T, tool string, main Main, cases []Case) {
	t.Helper()
	compareLocal(t, tool, main, cases, true)
}

// libpcpFault finds, in what PCP's tool wrote to stderr, a system error
// that libpcp gives on a damaged archive only by allocating memory by a
// damaged count (ENOMEM) or reading outside its buffers (EFAULT): what it
// answers then depends on the machine and the heap, not on the archive.
func libpcpFault(stderr string) string {
	for _, e := range []string{"Cannot allocate memory", "Bad address"} {
		if strings.Contains(stderr, ": "+e+"\n") {
			return e
		}
	}
	return ""
}

// unsteady reports whether PCP's tool, run again with glibc filling
// freshly allocated memory (MALLOC_PERTURB_), writes other than wantOut
// and wantErr:
// on some damaged archives libpcp reads past its buffers, and what it
// answers then depends on whatever was in memory.
func unsteady(bin string, env, args []string, wantOut, wantErr string) bool {
	for _, perturb := range []string{"85", "165"} {
		ctx, cancel := context.WithTimeout(context.Background(), BoundTime)
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Env = append(append([]string(nil), env...), "MALLOC_PERTURB_="+perturb)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		_ = cmd.Run()
		cancel()
		if out.String() != wantOut || errb.String() != wantErr {
			return true
		}
	}
	return false
}

// The test process's zone, and its children's through the environment,
// is UTC, as ArchiveEnv gives PCP's tools, set before any test's
// goroutine runs: time.Now reads time.Local, so writing it while another
// goroutine (a server left from an earlier test, a timer) takes the time
// is a data race, which restoring it after each comparison was.
func init() {
	os.Setenv("TZ", "UTC")
	time.Local = time.UTC
}

func compareLocal(t *testing.T, tool string, main Main, cases []Case, bounded bool) {
	t.Helper()
	bin := pcptest.NeedTool(t, tool)
	for _, v := range ArchiveEnv {
		name, value, _ := strings.Cut(v, "=")
		t.Setenv(name, value)
	}
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			for _, kv := range tc.Env {
				name, value, _ := strings.Cut(kv, "=")
				t.Setenv(name, value)
			}
			ctx := context.Background()
			if bounded {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, BoundTime)
				defer cancel()
			}
			cmd := exec.CommandContext(ctx, bin, tc.Args...)
			cmd.Env = append(append(os.Environ(), ArchiveEnv...), tc.Env...)
			wantOutB, wantErrB, wantCode := RunCmd(t, cmd)
			wantOut, wantErr := bytes.NewBuffer(wantOutB), bytes.NewBuffer(wantErrB)
			var stdout, stderr bytes.Buffer
			// a fresh process's zone, should the last run have set its
			// own (-z, -Z do, as libpcp's pmNewZone does); written only
			// then, as any goroutine's time.Now reads the variable
			if time.Local != time.UTC {
				time.Local = time.UTC
			}
			var code int
			argv := append([]string{tool}, tc.Args...)
			line := tool + " " + strings.Join(tc.Args, " ")
			if bounded {
				Bounded(t, line, BoundTime, BoundHeap, func() {
					code = main(context.Background(), argv, &stdout, &stderr)
				})
				if ctx.Err() != nil || wantCode < 0 {
					t.Logf("not compared: PCP's %s hung or died of a signal (exit %d)", tool, wantCode)
					return
				}
				if e := libpcpFault(wantErr.String()); e != "" {
					t.Logf("not compared: PCP's %s failed with %q, libpcp allocating by or reading past a damaged count", tool, e)
					return
				}
			} else {
				code = main(context.Background(), argv, &stdout, &stderr)
			}
			got, want := stdout.String(), wantOut.String()
			if tc.Mask != nil {
				got, want = tc.Mask(got), tc.Mask(want)
			}
			if bounded && (got != want || stderr.String() != wantErr.String() || code != wantCode) &&
				unsteady(bin, cmd.Env, tc.Args, wantOut.String(), wantErr.String()) {
				t.Logf("not compared: PCP's %s answers otherwise when its fresh heap memory is filled (MALLOC_PERTURB_): libpcp reads memory it never set", tool)
				return
			}
			if got != want {
				t.Errorf("%s: stdout differs\n%s", line, Diff(want, got))
			}
			if g, w := stderr.String(), wantErr.String(); g != w {
				t.Errorf("%s: stderr differs\n%s", line, Diff(w, g))
			}
			if code != wantCode {
				t.Errorf("%s: exit %d, PCP's %d", line, code, wantCode)
			}
		})
	}
}
