package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// The trivial agent's namespace, static and dynamic.
const (
	staticPMNS  = "root {\n\ttrivial\n}\n\ntrivial {\n\ttime\t250:0:0\n}\n"
	dynamicPMNS = "root {\n\ttrivial\t250:*:*\n}\n"
)

// worldDir makes a directory everyone can read: PCP's agents drop to user
// pcp before they read their help text.
func worldDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "gopcp-trivial-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func writeFile(t *testing.T, path, text string) string {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestMain removes the commands built for the tests.
func TestMain(m *testing.M) { os.Exit(testbed.Main(m)) }

// pcpSource returns a file of PCP 6.0.3's trivial agent: from the PCP
// source mirror when there is one, else the copy PCP installs.
func pcpSource(t *testing.T, in *testbed.Install, name string) []byte {
	t.Helper()
	const mirror = "/work/.mirror/performancecopilot+pcp/repo"
	if out, err := exec.Command("git", "-C", mirror, "show", "6.0.3:src/pmdas/trivial/"+name).Output(); err == nil {
		return out
	}
	b, err := os.ReadFile(filepath.Join(in.Var("PCP_PMDAS_DIR"), "trivial", name))
	if err != nil {
		pcptest.Missing(t, "PCP's trivial agent source: "+err.Error())
	}
	return b
}

// buildPCP compiles PCP's own trivial agent into dir/bin, with its help
// text built by newhelp into dir/pmdas/trivial, where the agent looks when
// PCP_PMDAS_DIR is dir/pmdas.
func buildPCP(t *testing.T, in *testbed.Install, dir, pmns string) string {
	t.Helper()
	pcptest.NeedCompiler(t, pcptest.PMDAHeaders...)
	src := filepath.Join(dir, "src")
	help := filepath.Join(dir, "pmdas", "trivial")
	for _, d := range []string{src, help, filepath.Join(dir, "bin")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(src, "trivial.c"), string(pcpSource(t, in, "trivial.c")))
	writeFile(t, filepath.Join(src, "domain.h"), "#define TRIVIAL 250\n")
	helpSrc := writeFile(t, filepath.Join(src, "help"), string(pcpSource(t, in, "help")))
	bin := filepath.Join(dir, "bin", "pmdatrivial")
	pcptest.Compile(t, pcptest.C{
		Src: filepath.Join(src, "trivial.c"), Out: bin, CFlags: []string{"-O1"},
		Libs: pcptest.PMDALibs, Headers: pcptest.PMDAHeaders,
	})
	newhelp, err := in.Tool("newhelp")
	if err != nil {
		pcptest.Missing(t, "newhelp: "+err.Error())
	}
	if out, err := exec.Command(newhelp, "-n", pmns, "-o", filepath.Join(help, "help"), helpSrc).CombinedOutput(); err != nil {
		t.Fatalf("newhelp: %v\n%s", err, out)
	}
	return bin
}

// tool runs a PCP tool against bed and returns its output, failing on a
// non-zero exit unless allowFail.
func tool(t *testing.T, bed *testbed.PMCD, allowFail bool, tool string, args ...string) string {
	t.Helper()
	r := bed.Run(tool, append([]string{"-h", bed.Host()}, args...)...)
	if r.Err != nil && !allowFail {
		t.Fatalf("%s %v: %v\n%s%s", tool, args, r.Err, r.Stdout, r.Stderr)
	}
	return r.Stdout + r.Stderr
}

var valueRE = regexp.MustCompile(`value (\d+)`)

func value(t *testing.T, out string) int64 {
	t.Helper()
	m := valueRE.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no value in %q", out)
	}
	n, err := strconv.ParseInt(m[1], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// hasHelp reports whether pminfo -t or -T output shows help text.
func hasHelp(out string) bool {
	return !strings.Contains(out, "<no") && !strings.Contains(out, "unavailable") &&
		strings.Contains(out, "trivial.time")
}

// TestTrivialAgainstPCP runs our pmdatrivial and PCP's own trivial agent,
// each under a private PCP pmcd with the same static namespace, and
// compares what PCP's tools say of them.
func TestTrivialAgainstPCP(t *testing.T) {
	in := testbed.Need(t)
	dir := worldDir(t)
	pmns := writeFile(t, filepath.Join(dir, "root_trivial"), staticPMNS)
	ours := pcptest.GoCommand(t, ".")
	theirs := buildPCP(t, in, dir, pmns)

	ourBed := testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{
		testbed.PMCDAgent(),
		testbed.PipeAgent("trivial", 250, pmns, ours, "-d", "250"),
	}})
	pcpBed := testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{
		testbed.PMCDAgent(),
		testbed.PipeAgent("trivial", 250, pmns, "/usr/bin/env",
			"PCP_PMDAS_DIR="+filepath.Join(dir, "pmdas"), theirs, "-d", "250"),
	}})

	same := []struct {
		name string
		args []string
		fail bool
	}{
		{"descriptor", []string{"-d", "trivial.time"}, false},
		{"PMID", []string{"-m", "trivial"}, false},
		{"store refused", nil, true},
		{"unknown name", []string{"-d", "trivial.nosuch"}, true},
	}
	for _, c := range same {
		t.Run(c.name, func(t *testing.T) {
			prog, args := "pminfo", c.args
			if args == nil {
				prog, args = "pmstore", []string{"trivial.time", "42"}
			}
			got := tool(t, ourBed, c.fail, prog, args...)
			want := tool(t, pcpBed, c.fail, prog, args...)
			if got != want {
				t.Errorf("%s %v:\nours:\n%s\nPCP's:\n%s", prog, args, got, want)
			}
		})
	}

	// PCP's trivial.c is written to PMDA_INTERFACE_2, older than labels:
	// as a daemon it answers every label request with none, so its
	// metrics have only the context's labels, ours as PCP's (while an
	// agent of today's interface, PCP's sample, names its domain).
	t.Run("labels", func(t *testing.T) {
		sample := testbed.StartPMCD(t, testbed.Options{})
		if out := tool(t, sample, false, "pminfo", "-l", "sample.long.one"); !strings.Contains(out, `{"agent":"sample",`) {
			t.Fatalf("PCP's sample agent's labels are not as expected:\n%s", out)
		}
		got := tool(t, ourBed, false, "pminfo", "-l", "trivial.time")
		want := tool(t, pcpBed, false, "pminfo", "-l", "trivial.time")
		if got != want || strings.Contains(want, `"agent"`) {
			t.Errorf("pminfo -l:\nours:\n%s\nPCP's:\n%s", got, want)
		}
	})

	// PCP's clock readings before and after ours bracket it, however slow
	// the tools are.
	t.Run("value", func(t *testing.T) {
		before := value(t, tool(t, pcpBed, false, "pminfo", "-f", "trivial.time"))
		got := value(t, tool(t, ourBed, false, "pminfo", "-f", "trivial.time"))
		after := value(t, tool(t, pcpBed, false, "pminfo", "-f", "trivial.time"))
		if got < before-1 || got > after+1 {
			t.Errorf("trivial.time: ours %d, PCP's %d before and %d after", got, before, after)
		}
	})

	for _, flag := range []string{"-t", "-T"} {
		t.Run("help"+flag, func(t *testing.T) {
			got := tool(t, ourBed, false, "pminfo", flag, "trivial.time")
			want := tool(t, pcpBed, false, "pminfo", flag, "trivial.time")
			if hasHelp(got) != hasHelp(want) {
				t.Errorf("pminfo %s: help in ours %v, in PCP's %v\nours:\n%s\nPCP's:\n%s",
					flag, hasHelp(got), hasHelp(want), got, want)
			}
		})
	}
}

// TestTrivialDynamicNames serves trivial's names from the agent itself,
// pmcd holding only "trivial 250:*:*", and checks PCP's tools find the
// same names and descriptor as with the static namespace.
func TestTrivialDynamicNames(t *testing.T) {
	testbed.Need(t)
	dir := worldDir(t)
	ours := pcptest.GoCommand(t, ".")
	static := testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{
		testbed.PMCDAgent(),
		testbed.PipeAgent("trivial", 250, writeFile(t, filepath.Join(dir, "static"), staticPMNS), ours),
	}})
	dynamic := testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{
		testbed.PMCDAgent(),
		testbed.PipeAgent("trivial", 250, writeFile(t, filepath.Join(dir, "dynamic"), dynamicPMNS), ours),
	}})
	for _, args := range [][]string{
		{"-m", "trivial"},
		{"-d", "trivial.time"},
		{"-m", "trivial.time"},
		{"250.0.0"},
	} {
		got := tool(t, dynamic, false, "pminfo", args...)
		want := tool(t, static, false, "pminfo", args...)
		if got != want {
			t.Errorf("pminfo %v:\ndynamic:\n%s\nstatic:\n%s", args, got, want)
		}
	}
	if out := tool(t, dynamic, false, "pminfo", "-f", "trivial"); !bytes.Contains([]byte(out), []byte("value ")) {
		t.Errorf("pminfo -f trivial: %s", out)
	}
}
