package main

import (
	"bufio"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testbed"
)

// The tests here run PCP's pmdasample and ours, each fresh under its own
// private PCP pmcd, drive both with the same PCP tool command lines (the
// scripts in testdata/*.cmds) and compare what the tools print. PCP's
// output is kept in testdata/*.golden, rewritten with -update (or
// UPDATE_GOLDEN=1), and ours is compared with both the golden file and the
// live run.

var update = flag.Bool("update", os.Getenv("UPDATE_GOLDEN") == "1", "rewrite testdata/*.golden from PCP's agent")

// worldDir makes a directory everyone can read: pmcd's agents may run as
// user pcp.
func worldDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "gopcp-sample-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// buildOurs builds this command into dir.
func buildOurs(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "pmdasample")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// samplePMNS writes a namespace root holding PCP's sample namespace as
// PCP installs it, for domain 29.
func samplePMNS(t *testing.T, in *testbed.Install, dir string) string {
	t.Helper()
	src := filepath.Join(in.Var("PCP_PMDAS_DIR"), "sample", "pmns")
	path := filepath.Join(dir, "root_sample")
	text := "root {\n\tsample\n}\n\n#define SAMPLE 29\n#include \"" + src + "\"\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// pair is our agent and PCP's, each under a private PCP pmcd.
type pair struct {
	ours, theirs *testbed.PMCD
	// oursDir is the PCP_PMDAS_DIR our agent was given.
	oursDir string
}

func startPair(t *testing.T) pair {
	in := testbed.Need(t)
	dir := worldDir(t)
	bin := buildOurs(t, dir)
	root := samplePMNS(t, in, dir)
	pmdas := filepath.Join(dir, "pmdas")
	if err := os.MkdirAll(filepath.Join(pmdas, "sample"), 0o755); err != nil {
		t.Fatal(err)
	}
	return pair{
		ours: testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{
			testbed.PMCDAgent(),
			testbed.PipeAgent("sample", 29, root, "/usr/bin/env", "PCP_PMDAS_DIR="+pmdas,
				bin, "-d", "29", "-l", filepath.Join(dir, "sample.log")),
		}}),
		theirs:  testbed.StartPMCD(t, testbed.Options{}),
		oursDir: pmdas,
	}
}

func tool(bed *testbed.PMCD, name string, args ...string) string {
	r := bed.Run(name, append([]string{"-h", bed.Host()}, args...)...)
	return r.Stdout + r.Stderr
}

// Masks for what differs from run to run of the same agent: host names,
// times of day, and the values of the metrics that read clocks or the
// process (nondeterministic).
var (
	portRE  = regexp.MustCompile(`localhost:\d+`)
	hostRE  = regexp.MustCompile(`(?m)^(host:\s+).*$`)
	timeRE  = regexp.MustCompile(`\d\d:\d\d:\d\d\.\d+`)
)

// nondeterministic metrics: their values depend on the clock, the process
// or the kernel, not on what the agent was asked.
var nondeterministic = map[string]bool{
	"sample.daemon_pid": true, "sample.dupnames.daemon_pid": true, "sample.dupnames.pid_daemon": true,
	"sample.seconds": true, "sample.dupnames.two.seconds": true, "sample.milliseconds": true,
	"sample.sysinfo": true, "sample.ulonglong.bin": true, "sample.ulonglong.bin_ctr": true,
	"sample.proc.time": true, "sample.step": true, "sample.step_counter": true,
}

// mask hides the varying parts of tool output. Values are hidden in
// pminfo's blocks (a metric name line, then indented lines) and pmprobe's
// lines (name, count, values) of nondeterministic metrics.
func mask(s string) string {
	s = portRE.ReplaceAllString(s, "HOST")
	s = hostRE.ReplaceAllString(s, "${1}HOST")
	s = timeRE.ReplaceAllString(s, "TIME")
	var b strings.Builder
	sc := bufio.NewScanner(strings.NewReader(s))
	sc.Buffer(nil, 1<<20)
	hide := false
	for sc.Scan() {
		line := sc.Text()
		if line != "" && line[0] != ' ' {
			name, _, _ := strings.Cut(line, " ")
			hide = nondeterministic[name]
			if hide && strings.Contains(line, " ") {
				line = name + " MASKED"
			}
		} else if hide && strings.Contains(line, "value ") {
			line = line[:strings.Index(line, "value ")] + "value MASKED"
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// script runs the command lines of testdata/name.cmds against both
// agents, one after the other, and returns the transcripts, masked.
// Lines starting "#" are comments; "@dynamic FILE-LINES" writes
// sample/dynamic.indom for both agents (lines separated by "|").
func script(t *testing.T, p pair, name string) (ours, theirs string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name+".cmds"))
	if err != nil {
		t.Fatal(err)
	}
	var o, w strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if rest, ok := strings.CutPrefix(line, "@dynamic "); ok {
			text := strings.ReplaceAll(rest, "|", "\n") + "\n"
			for _, dir := range []string{p.oursDir, filepath.Join(p.theirs.Dir(), "pmdas")} {
				path := filepath.Join(dir, "sample", "dynamic.indom")
				if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			continue
		}
		f := strings.Fields(line)
		o.WriteString("$ " + line + "\n" + tool(p.ours, f[0], f[1:]...))
		w.WriteString("$ " + line + "\n" + tool(p.theirs, f[0], f[1:]...))
	}
	return mask(o.String()), mask(w.String())
}

// compare checks ours against PCP's live output and the golden file.
func compare(t *testing.T, name, ours, theirs string) {
	t.Helper()
	golden := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(golden, []byte(theirs), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if ours != theirs {
		t.Errorf("%s: ours differs from PCP's sample agent:\n%s", name, diff(ours, theirs))
	}
	if g, err := os.ReadFile(golden); err != nil {
		t.Errorf("%s: %v (regenerate with UPDATE_GOLDEN=1)", name, err)
	} else if string(g) != ours {
		t.Errorf("%s: ours differs from %s:\n%s", name, golden, diff(ours, string(g)))
	}
}

// diff shows the first lines that differ, with their line numbers.
func diff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	var out strings.Builder
	n := 0
	for i := 0; i < max(len(al), len(bl)) && n < 20; i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			out.WriteString("line " + strconv.Itoa(i+1) + ":\n  ours:  " + x + "\n  PCP's: " + y + "\n")
			n++
		}
	}
	return out.String()
}

// TestAgainstPCP runs each script against a fresh pair of agents.
func TestAgainstPCP(t *testing.T) {
	for _, name := range []string{"metadata", "values", "stores", "events", "dynamic", "probe"} {
		t.Run(name, func(t *testing.T) {
			ours, theirs := script(t, startPair(t), name)
			compare(t, name, ours, theirs)
		})
	}
}
