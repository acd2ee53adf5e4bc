package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// The comparison with PCP's pmdumplog: every archive of PCP's QA suite
// under several option sets. PCP's answers (a SHA-256 of stdout and of
// stderr, and the exit status) are cached in testdata/golden.txt, made
// by running PCP's pmdumplog with UPDATE_GOLDEN=1; where PCP is installed
// a difference is shown as a diff against PCP's output.

const qaDir = "/var/lib/pcp/testsuite/archives"

// goldenTZ is the reporting zone of the comparison, one with daylight
// saving so that the zone rules are exercised.
const goldenTZ = "Australia/Melbourne"

// optionSets are the option sets compared; "all" ones run on every
// archive, the others on every archive of sample (on every archive too
// with GOPCP_PMDUMPLOG_ALL=1, which takes a few minutes).
var optionSets = []struct {
	args []string
	all  bool
}{
	{[]string{"-a"}, true},
	{[]string{"-ehIL"}, true},
	{[]string{"-z", "-xxx", "-r"}, false},
	{[]string{"-Z", "EST-10EDT", "-xx", "-dilt"}, false},
	{[]string{"-M", "-s", "-x"}, false},
	{[]string{"-m", "-l", "-Z", "UTC"}, false},
	{[]string{"-S", "+10", "-T", "+20", "-x"}, false},
	{[]string{"-r", "-S", "+5", "-T", "-3", "-L"}, false},
	{[]string{"-S", "@10:56", "-T", "-1m", "-s"}, false},
	{[]string{"-S", "garbage"}, false},
	// Metric names after the archive: leaves, an inner node, unknown.
	{[]string{"-M", "ARCHIVE", "sample.seconds", "sample.bin", "disk", "no.such.metric", "kernel.all.load"}, false},
}

// sample is a spread of archives for the smaller option sets: both
// versions, compressed and multi-volume ones, event records, deltas,
// labels, help text and damaged archives.
var sample = regexp.MustCompile(`^(20041125|ok-bigbin|omnibus_v3|omnibus-nomark_v3|sample-labels|eventrec.*|multi/.*|multi-xz/20150508.11.44|badlen-.*|badti-.*|bad.*|.*trunc.*|.*v3.*|rattle|pcp-atop|naslog|mark-bug|tzchange|bozo-20170904|.*nomark.*)$`)

// extraNames are operands that are not archive base names.
var extraNames = []string{"20041125.0", "20041125.meta", "no-such-archive", "multi", "multi-xz", "a,b"}

// largeOutputs are left out of the comparison: their dumps run to
// millions of lines. They are compared by hand and in the benchmark.
var largeOutputs = map[string]bool{"20180416.10.00": true, "pcp-pidstat-process-args": true}

func archiveNames(t *testing.T) []string {
	var names []string
	add := func(dir string) {
		ents, err := os.ReadDir(filepath.Join(qaDir, dir))
		if err != nil {
			return
		}
		seen := map[string]bool{}
		re := regexp.MustCompile(`^(.*)\.(meta|index|[0-9]+)(\.(xz|lzma|bz2|bz|gz|Z|z))?$`)
		for _, e := range ents {
			m := re.FindStringSubmatch(e.Name())
			if m == nil {
				continue
			}
			n := m[1]
			if dir != "" {
				n = dir + "/" + n
			}
			if !seen[n] && !largeOutputs[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	add("")
	for _, d := range []string{"multi", "multi-corrupted", "multi-xz", "multi-xz-1k"} {
		add(d)
	}
	sort.Strings(names)
	return append(names, extraNames...)
}

type outcome struct {
	code   int
	stdout string // SHA-256
	stderr string
}

func (o outcome) String() string { return fmt.Sprintf("%d %s %s", o.code, o.stdout, o.stderr) }

func sum(b []byte) string { h := sha256.Sum256(b); return hex.EncodeToString(h[:8]) }

type caseKey struct{ opts, name string }

var everything = os.Getenv("GOPCP_PMDUMPLOG_ALL") == "1" || os.Getenv("UPDATE_GOLDEN") == "1"

func cases(t *testing.T) []caseKey {
	var out []caseKey
	for _, set := range optionSets {
		for _, n := range archiveNames(t) {
			if set.all || everything || sample.MatchString(n) {
				out = append(out, caseKey{strings.Join(set.args, " "), n})
			}
		}
	}
	return out
}

const goldenFile = "testdata/golden.txt"

func readGolden(t *testing.T) map[caseKey]outcome {
	f, err := os.Open(goldenFile)
	if err != nil {
		t.Fatalf("golden outputs: %v (regenerate with UPDATE_GOLDEN=1)", err)
	}
	defer f.Close()
	g := map[caseKey]outcome{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.Split(sc.Text(), "\t")
		if len(parts) != 5 {
			continue
		}
		var o outcome
		fmt.Sscan(parts[2], &o.code)
		o.stdout, o.stderr = parts[3], parts[4]
		g[caseKey{parts[0], parts[1]}] = o
	}
	return g
}

func runTool(prog string, opts, name string) (outcome, []byte, []byte) {
	args := caseArgs(opts, name)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, prog, args...)
	cmd.Dir = qaDir
	cmd.Env = append(os.Environ(), "TZ="+goldenTZ)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	return outcome{code, sum(out.Bytes()), sum(errb.Bytes())}, out.Bytes(), errb.Bytes()
}

// caseArgs puts the archive where the option set says ARCHIVE, else
// last.
func caseArgs(opts, name string) []string {
	args := strings.Fields(opts)
	for i, a := range args {
		if a == "ARCHIVE" {
			args[i] = name
			return args
		}
	}
	return append(args, name)
}

func needQA(t *testing.T) {
	if _, err := os.Stat(qaDir); err != nil {
		pcptest.Missing(t, "PCP's QA archives ("+qaDir+")")
	}
}

// TestGolden regenerates the golden outputs from PCP's pmdumplog when
// UPDATE_GOLDEN=1.
func TestGolden(t *testing.T) {
	if os.Getenv("UPDATE_GOLDEN") != "1" {
		t.Skip("UPDATE_GOLDEN=1 regenerates testdata/golden.txt from PCP's pmdumplog")
	}
	needQA(t)
	pcp := pcptest.NeedTool(t, "pmdumplog")
	var b strings.Builder
	for _, c := range cases(t) {
		o, _, _ := runTool(pcp, c.opts, c.name)
		fmt.Fprintf(&b, "%s\t%s\t%d\t%s\t%s\n", c.opts, c.name, o.code, o.stdout, o.stderr)
	}
	if err := os.WriteFile(goldenFile, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestMatchesPCP runs our pmdumplog (built without the race detector, to
// keep to the time budget) on every case and compares with PCP's cached
// answers; a subset also runs in-process below, under the race detector.
func TestMatchesPCP(t *testing.T) {
	needQA(t)
	golden := readGolden(t)
	prog := pcptest.GoCommandWith(t, ".", pcptest.Build{Env: []string{"CGO_ENABLED=0"}})
	all := cases(t)
	type result struct {
		c    caseKey
		got  outcome
		want outcome
		ok   bool
	}
	results := make([]result, len(all))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.NumCPU())
	for i, c := range all {
		want, ok := golden[c]
		if !ok {
			t.Errorf("%s %s: no golden output (regenerate with UPDATE_GOLDEN=1)", c.opts, c.name)
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			got, _, _ := runTool(prog, c.opts, c.name)
			results[i] = result{c, got, want, got == want}
		}()
	}
	wg.Wait()
	same, differ := 0, 0
	for _, r := range results {
		if r.c.name == "" {
			continue
		}
		if r.ok {
			same++
			continue
		}
		differ++
		t.Errorf("pmdumplog %s %s: ours %v, PCP's %v%s", r.c.opts, r.c.name, r.got, r.want, liveDiff(r.c, prog))
	}
	t.Logf("compared with PCP's pmdumplog: %d same, %d differ", same, differ)
}

// liveDiff shows how our output differs from PCP's when PCP is at hand.
func liveDiff(c caseKey, prog string) string {
	pcp, err := exec.LookPath("pmdumplog")
	if err != nil {
		return ""
	}
	_, po, pe := runTool(pcp, c.opts, c.name)
	_, go_, ge := runTool(prog, c.opts, c.name)
	return "\n" + firstDiff("stdout", go_, po) + firstDiff("stderr", ge, pe)
}

func firstDiff(what string, got, want []byte) string {
	g := strings.Split(string(got), "\n")
	w := strings.Split(string(want), "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b || i >= len(g) || i >= len(w) {
			return fmt.Sprintf("  %s line %d:\n    ours: %q\n    PCP:  %q\n", what, i+1, a, b)
		}
	}
	return ""
}

// TestMain removes the command built for the tests.
func TestMain(m *testing.M) { os.Exit(pcptest.Main(m)) }

// TestInProcess runs the sample with -a through run itself, so that the
// race detector and coverage see the code, comparing with the same
// golden answers.
func TestInProcess(t *testing.T) {
	needQA(t)
	golden := readGolden(t)
	t.Setenv("TZ", goldenTZ)
	wd, _ := os.Getwd()
	if err := os.Chdir(qaDir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	n := 0
	for _, c := range cases(t) {
		if c.opts != "-a" || !sample.MatchString(c.name) || strings.HasPrefix(c.name, "bozo") {
			continue
		}
		want, ok := golden[c]
		if !ok {
			continue
		}
		var out, errb bytes.Buffer
		code := run(append([]string{"pmdumplog"}, caseArgs(c.opts, c.name)...), &out, &errb)
		got := outcome{code, sum(out.Bytes()), sum(errb.Bytes())}
		if got != want {
			t.Errorf("in process: pmdumplog %s %s: ours %v, PCP's %v", c.opts, c.name, got, want)
		}
		n++
	}
	t.Logf("%d archives compared in process", n)
}
