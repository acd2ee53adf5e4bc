// Package clitest compares gopcp's tools with PCP's: each case runs PCP's
// program and ours with the same arguments against the same private pmcd
// (internal/testing/testbed) and compares stdout, stderr and the exit status,
// after masks for what legitimately changes between two runs (values that
// move, times of day, log lines with timestamps and process ids).
package clitest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// Main is a tool's entry point: argv with the program name first, its
// output written to stdout and stderr, its exit status returned.
type Main func(ctx context.Context, argv []string, stdout, stderr io.Writer) int

// Case is one command line to compare.
type Case struct {
	Name string
	Args []string
	// NoHost leaves the arguments without "-h host" in front.
	NoHost bool
	// Mask, when set, rewrites both sides' stdout before comparing.
	Mask func(string) string
	// Reset are PCP tool command lines (tool first, "-h host" added) run
	// before each side, to put the agent back in the same state.
	Reset [][]string
	// Fresh runs each side against its own new pmcd.
	Fresh bool
	// Env are NAME=value settings for both sides.
	Env []string
}

var (
	numberValue = regexp.MustCompile(`-?[0-9][0-9]*(\.[0-9]+)?(e[+-][0-9]+)?`)
	timeOfDay   = regexp.MustCompile(`[0-9][0-9]:[0-9][0-9]:[0-9][0-9](\.[0-9]+)?`)
	// pmNotifyErr lines: "[Sun Nov 22 12:33:19] pminfo(17458) Warning: ..."
	notifyLine = regexp.MustCompile(`(?m)^\[[A-Z][a-z][a-z] [A-Z][a-z][a-z] [ 0-9][0-9] [0-9:]{8}\] [a-z]+\([0-9]+\) .*\n`)
)

// Numbers masks every number on both sides, for values that change.
func Numbers(s string) string { return numberValue.ReplaceAllString(s, "N") }

// Times masks times of day.
func Times(s string) string { return timeOfDay.ReplaceAllString(s, "HH:MM:SS") }

// SortLines sorts the lines, for output whose order is not defined.
func SortLines(s string) string {
	l := strings.Split(s, "\n")
	sort.Strings(l)
	return strings.Join(l, "\n")
}

// DropNotices removes pmNotifyErr lines (a DSO agent's warnings with
// time and process id), which PCP's agents print and ours do not.
func DropNotices(s string) string { return notifyLine.ReplaceAllString(s, "") }

// bedSetting are the variables a bed sets for the tools run against it
// (see testbed.PMCD.Env).
var bedSetting = map[string]bool{
	"PCP_RUN_DIR": true, "PCP_TMP_DIR": true, "PCP_VAR_DIR": true, "PMCD_PORT": true, "PMCD_SOCKET": true,
}

// Compare runs every case: PCP's tool through the bed, ours in-process.
func Compare(t *testing.T, tool string, main Main, bed *testbed.PMCD, cases []Case) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			pcpBed, ourBed := bed, bed
			if tc.Fresh {
				pcpBed = testbed.StartPMCD(t, testbed.Options{Env: tc.Env})
				ourBed = testbed.StartPMCD(t, testbed.Options{Env: tc.Env})
			}
			// Ours runs in this process: give it the bed's environment,
			// as PCP's tool gets, so that a default source (local:)
			// reaches the bed, never a pmcd of the system's.
			for _, kv := range ourBed.Env() {
				name, value, _ := strings.Cut(kv, "=")
				if bedSetting[name] {
					t.Setenv(name, value)
				}
			}
			for _, kv := range tc.Env {
				name, value, _ := strings.Cut(kv, "=")
				t.Setenv(name, value)
			}
			args := func(b *testbed.PMCD) []string {
				if tc.NoHost {
					return tc.Args
				}
				return append([]string{"-h", b.Host()}, tc.Args...)
			}
			reset := func(b *testbed.PMCD) {
				for _, r := range tc.Reset {
					res := b.Run(r[0], append([]string{"-h", b.Host()}, r[1:]...)...)
					if res.Err != nil {
						t.Fatalf("reset %v: %v", r, res.Err)
					}
				}
			}
			reset(pcpBed)
			want := runPCP(pcpBed, tool, args(pcpBed), tc.Env)
			reset(ourBed)
			var stdout, stderr bytes.Buffer
			code := main(context.Background(), append([]string{tool}, args(ourBed)...), &stdout, &stderr)
			got := stdout.String()
			wantOut := want.Stdout
			if tc.Mask != nil {
				got, wantOut = tc.Mask(got), tc.Mask(wantOut)
			}
			line := tool + " " + strings.Join(tc.Args, " ")
			if got != wantOut {
				t.Errorf("%s: stdout differs\n%s", line, Diff(wantOut, got))
			}
			if g, w := DropNotices(stderr.String()), DropNotices(want.Stderr); g != w {
				t.Errorf("%s: stderr differs\n%s", line, Diff(w, g))
			}
			if code != want.ExitCode {
				t.Errorf("%s: exit %d, PCP's %d", line, code, want.ExitCode)
			}
		})
	}
}

func runPCP(b *testbed.PMCD, tool string, args, env []string) testbed.Result {
	cmd, err := b.Command(context.Background(), tool, args...)
	if err != nil {
		return testbed.Result{ExitCode: -1, Err: err}
	}
	cmd.Env = append(cmd.Env, env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	res := testbed.Result{Stdout: stdout.String(), Stderr: stderr.String(), ExitCode: -1, Err: err}
	if cmd.ProcessState != nil {
		res.ExitCode = cmd.ProcessState.ExitCode()
	}
	return res
}

// Diff shows the first differing line of PCP's output and ours.
func Diff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b || (i >= len(w)) != (i >= len(g)) {
			return fmt.Sprintf("line %d:\n  PCP:  %q\n  ours: %q", i+1, a, b)
		}
	}
	return "(equal)"
}
