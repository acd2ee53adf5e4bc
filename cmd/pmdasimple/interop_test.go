package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// The simple agent's namespace, with its domain in place of SIMPLE.
const simplePMNS = `root {
	simple
}

simple {
	numfetch	253:0:0
	color	253:0:1
	time
	now	253:2:4
}

simple.time {
	user	253:1:2
	sys	253:1:3
}
`

// world is a directory everyone can read, laid out as PCP_PMDAS_DIR with
// simple/simple.conf, simple/help.{dir,pag} (built by PCP's newhelp from
// PCP's help source, for PCP's agents) and the namespace.
type world struct {
	dir, pmdas, pmns, conf string
}

func newWorld(t *testing.T, in *testbed.Install) *world {
	t.Helper()
	dir, err := os.MkdirTemp("", "gopcp-simple-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	w := &world{dir: dir, pmdas: filepath.Join(dir, "pmdas")}
	agentDir := filepath.Join(w.pmdas, "simple")
	if err := os.MkdirAll(agentDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{dir, w.pmdas, agentDir} {
		os.Chmod(d, 0o755)
	}
	w.pmns = write(t, filepath.Join(dir, "root_simple"), simplePMNS)
	w.conf = write(t, filepath.Join(agentDir, "simple.conf"), "sec,min,hour\n")
	src := pcpSimpleFile(t, in, "help")
	src = strings.ReplaceAll(src, "@ SIMPLE.", "@ 253.")
	helpSrc := write(t, filepath.Join(dir, "help.src"), src)
	newhelp, err := in.Tool("newhelp")
	if err != nil {
		pcptest.Missing(t, "newhelp: "+err.Error())
	}
	if out, err := exec.Command(newhelp, "-n", w.pmns, "-o", filepath.Join(agentDir, "help"), helpSrc).CombinedOutput(); err != nil {
		t.Fatalf("newhelp: %v\n%s", err, out)
	}
	return w
}

func write(t *testing.T, path, text string) string {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// pcpSimpleFile is a file of PCP's simple agent as PCP installs it.
func pcpSimpleFile(t *testing.T, in *testbed.Install, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(in.Var("PCP_PMDAS_DIR"), "simple", name))
	if err != nil {
		pcptest.Missing(t, "PCP's simple agent: "+err.Error())
	}
	return string(b)
}

// env runs argv with PCP_PMDAS_DIR pointing into the world.
func (w *world) env(argv ...string) []string {
	return append([]string{"/usr/bin/env", "PCP_PMDAS_DIR=" + w.pmdas}, argv...)
}

// buildPCPC compiles PCP's C simple agent, the one the guide describes.
func buildPCPC(t *testing.T, in *testbed.Install, dir string) string {
	t.Helper()
	pcptest.NeedCompiler(t, pcptest.PMDAHeaders...)
	src := write(t, filepath.Join(dir, "simple.c"), pcpSimpleFile(t, in, "simple.c"))
	write(t, filepath.Join(dir, "domain.h"), "#define SIMPLE 253\n")
	bin := filepath.Join(dir, "pmdasimple-c")
	pcptest.Compile(t, pcptest.C{Src: src, Out: bin, CFlags: []string{"-O1"}, Libs: pcptest.PMDALibs, Headers: pcptest.PMDAHeaders})
	return bin
}

// pythonAgent is PCP's Python simple agent and the Python that has
// python3-pcp: the system's, which a python3 earlier in $PATH (a pyenv or
// virtualenv) may hide.
func pythonAgent(t *testing.T, in *testbed.Install) (python, agent string) {
	t.Helper()
	agent = filepath.Join(in.Var("PCP_PMDAS_DIR"), "simple", "pmdasimple.python")
	if _, err := os.Stat(agent); err != nil {
		pcptest.Missing(t, "PCP's pmdasimple.python: "+err.Error())
	}
	for _, py := range []string{"/usr/bin/python3", "python3"} {
		if err := exec.Command(py, "-c", "import pcp.pmda").Run(); err == nil {
			return py, agent
		}
	}
	pcptest.Missing(t, "python3-pcp is not installed")
	return "", ""
}

func tool(t *testing.T, bed *testbed.PMCD, prog string, args ...string) string {
	t.Helper()
	r := bed.Run(prog, append([]string{"-h", bed.Host()}, args...)...)
	return r.Stdout + r.Stderr
}

var (
	nowValues  = regexp.MustCompile(`(inst \[\d+ or "(sec|min|hour)"\] value )\d+`)
	timeValues = regexp.MustCompile(`(simple\.time\.(user|sys)\n\s+value )[0-9.e+-]+`)
)

// mask hides the values that follow the clock.
func mask(s string) string {
	s = nowValues.ReplaceAllString(s, "${1}N")
	return timeValues.ReplaceAllString(s, "${1}T")
}

// script is the conversation every pairing has with PCP's tools, in
// order: each line's output is compared. The agents start fresh, so the
// fetch counts and colour values line up.
var script = [][]string{
	{"pminfo", "-dml", "simple"},
	{"pminfo", "-f", "simple.numfetch", "simple.color"},
	{"pminfo", "-f", "simple.numfetch", "simple.color"},
	{"pminfo", "-f", "simple.now", "simple.time"},
	{"pmprobe", "-I", "simple.color", "simple.now"},
	{"pmstore", "simple.numfetch", "42"},
	{"pminfo", "-f", "simple.numfetch"},
	{"pmstore", "simple.numfetch", "-- -3"},
	{"pmstore", "-i", "red,blue", "simple.color", "250"},
	{"pmstore", "simple.color", "256"},
	{"pminfo", "-f", "simple.color"},
	{"pmstore", "simple.time.user", "1"},
	{"pmstore", "simple.now", "1"},
	{"pminfo", "-t", "simple.nosuch"},
}

func converse(t *testing.T, bed *testbed.PMCD) []string {
	t.Helper()
	var out []string
	for _, line := range script {
		args := line[1:]
		if len(args) > 1 && strings.HasPrefix(args[1], "-- ") {
			args = append([]string{args[0], "--"}, strings.TrimPrefix(args[1], "-- "))
		}
		out = append(out, mask(tool(t, bed, line[0], args...)))
	}
	return out
}

func compareRuns(t *testing.T, what string, got, want []string) {
	t.Helper()
	// The reference must have answered, or the comparison proves nothing.
	if !strings.Contains(want[0], "PMID: 253.2.4") || !strings.Contains(want[1], `"green"] value 10`) ||
		!strings.Contains(want[3], `"hour"] value N`) {
		t.Fatalf("%s: the reference did not answer as expected:\n%s", what, strings.Join(want, ""))
	}
	for i := range script {
		if got[i] != want[i] {
			t.Errorf("%s: %s:\nours:\n%s\nreference:\n%s", what, strings.Join(script[i], " "), got[i], want[i])
		}
	}
}

// TestAgainstPCPSimple runs the same conversation with PCP's tools against
// PCP's pmcd hosting PCP's C simple agent and against PCP's pmcd hosting
// ours, and compares every answer (time values masked).
func TestAgainstPCPSimple(t *testing.T) {
	in := testbed.Need(t)
	w := newWorld(t, in)
	ours := pcptest.GoCommand(t, ".")
	theirs := buildPCPC(t, in, w.dir)
	pcpBed := testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{
		testbed.PMCDAgent(), testbed.PipeAgent("simple", 253, w.pmns, w.env(theirs, "-d", "253")...)}})
	want := converse(t, pcpBed)
	ourBed := testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{
		testbed.PMCDAgent(), testbed.PipeAgent("simple", 253, w.pmns, w.env(ours, "-d", "253")...)}})
	compareRuns(t, "our pmdasimple under PCP's pmcd vs PCP's simple.c", converse(t, ourBed), want)
	if !strings.Contains(want[1], `inst [2 or "blue"] value 20`) {
		t.Errorf("PCP's agent did not answer as expected:\n%s", want[1])
	}

	// Help: the texts are our own, but present where PCP's are.
	for _, m := range []string{"simple.numfetch", "simple.color", "simple.time.user", "simple.time.sys", "simple.now", "253.0", "253.1"} {
		flag := "-t"
		args := []string{flag, m}
		if strings.Contains(m, ".") && m[0] >= '0' && m[0] <= '9' {
			continue
		}
		got := tool(t, ourBed, "pminfo", args...)
		ref := tool(t, pcpBed, "pminfo", args...)
		if strings.Contains(got, "<no") != strings.Contains(ref, "<no") || !strings.Contains(got, "[") {
			t.Errorf("pminfo -t %s:\nours: %s\nPCP's: %s", m, got, ref)
		}
	}
}

// TestPythonSimpleUnderOurPMCD runs PCP's Python simple agent under our
// pmcd and under PCP's, and our agent in-process (simple_init) in our
// pmcd, and compares what PCP's tools say of each.
func TestPythonSimpleUnderOurPMCD(t *testing.T) {
	in := testbed.Need(t)
	w := newWorld(t, in)
	python, py := pythonAgent(t, in)
	pyAgent := testbed.PipeAgent("simple", 253, w.pmns, w.env(python, py)...)
	pcpBed := testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(), pyAgent}})
	ourBed := testbed.StartGoPMCD(t, testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(), pyAgent}})
	compareRuns(t, "PCP's Python agent under our pmcd vs PCP's", converse(t, ourBed), converse(t, pcpBed))

	// Our agent in-process in our pmcd against PCP's C agent under PCP's.
	theirs := buildPCPC(t, in, w.dir)
	cBed := testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{
		testbed.PMCDAgent(), testbed.PipeAgent("simple", 253, w.pmns, w.env(theirs, "-d", "253")...)}})
	dsoBed := testbed.StartGoPMCD(t, testbed.Options{
		Agents: []testbed.Agent{testbed.PMCDAgent(), testbed.GoDSOAgent("simple", 253, "simple_init", w.pmns)},
		Env:    []string{"PCP_PMDAS_DIR=" + w.pmdas},
	})
	compareRuns(t, "our simple in-process in our pmcd vs PCP's simple.c under PCP's pmcd", converse(t, dsoBed), converse(t, cBed))
}
