package bench

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"fmt"
	"hash"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// toolRun is one run of a program under /usr/bin/time: its output's
// digest and line count, wall and CPU seconds, peak RSS in KiB.
type toolRun struct {
	sum       string
	lines     int
	head      []string // the first lines, to show a difference
	wall, cpu float64
	rssKB     float64
	errText   string
}

// lineHash digests what it is written and counts its lines, keeping
// the first few.
type lineHash struct {
	h     hash.Hash
	lines int
	head  []string
	part  []byte
}

func (w *lineHash) Write(p []byte) (int, error) {
	w.h.Write(p)
	n := bytes.Count(p, []byte{'\n'})
	if len(w.head) < 5 {
		w.part = append(w.part, p...)
		for len(w.head) < 5 {
			i := bytes.IndexByte(w.part, '\n')
			if i < 0 {
				break
			}
			w.head = append(w.head, string(w.part[:i]))
			w.part = w.part[i+1:]
		}
		if len(w.head) == 5 {
			w.part = nil
		}
	}
	w.lines += n
	return len(p), nil
}

// timeTool runs bin args under /usr/bin/time -f, its standard output
// digested as it comes (outputs of large archives run to gigabytes).
func timeTool(t *testing.T, bin string, env []string, args ...string) toolRun {
	t.Helper()
	var err error
	res := filepath.Join(t.TempDir(), "time")
	cmd := exec.Command("/usr/bin/time", append([]string{"-f", "%e %U %S %M", "-o", res, bin}, args...)...)
	cmd.Env = append(append(os.Environ(), "TZ=UTC"), env...)
	out := &lineHash{h: sha256.New()}
	cmd.Stdout = bufio.NewWriterSize(out, 1<<16)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	// the exit status is left to the comparison: PCP's and ours must
	// end alike, and their error text is compared
	_ = cmd.Run()
	cmd.Stdout.(*bufio.Writer).Flush()
	r := toolRun{sum: fmt.Sprintf("%x", out.h.Sum(nil)), lines: out.lines, head: out.head, errText: stderr.String()}
	text, rerr := os.ReadFile(res)
	if rerr != nil {
		t.Fatal(rerr)
	}
	lines := strings.Split(strings.TrimSpace(string(text)), "\n")
	f := strings.Fields(lines[len(lines)-1])
	if len(f) != 4 {
		t.Fatalf("/usr/bin/time %s: %q", bin, text)
	}
	v := make([]float64, 4)
	for i := range f {
		if v[i], err = strconv.ParseFloat(f[i], 64); err != nil {
			t.Fatalf("/usr/bin/time %s: %q", bin, text)
		}
	}
	r.wall, r.cpu, r.rssKB = v[0], v[1]+v[2], v[3]
	return r
}

// replayCase is one command line given to PCP's program and ours.
type replayCase struct {
	label string
	pcp   string // PCP's program (a path)
	ours  string // ours (a path)
	args  []string
	env   []string
}

// replayResult holds a case's medians.
type replayResult struct {
	c                replayCase
	lines            int
	pcp, ours        toolRun // medians (each field its own median)
	pcpRuns, ourRuns []toolRun
	before           *toolRun // the other build's medians, if run
	outputsIdentical bool
}

// median returns the median of each measured field of runs.
func medianRuns(runs []toolRun) toolRun {
	pick := func(f func(toolRun) float64) float64 {
		v := make([]float64, len(runs))
		for i, r := range runs {
			v[i] = f(r)
		}
		slices.Sort(v)
		return v[len(v)/2]
	}
	m := runs[0]
	m.wall = pick(func(r toolRun) float64 { return r.wall })
	m.cpu = pick(func(r toolRun) float64 { return r.cpu })
	m.rssKB = pick(func(r toolRun) float64 { return r.rssKB })
	return m
}

// runSideBySide runs every case rounds times, PCP's program then ours in
// each round, and checks that both print the same output.
func runSideBySide(t *testing.T, rounds int, cases []replayCase) []replayResult {
	t.Helper()
	var out []replayResult
	for _, c := range cases {
		// another build of ours, run in the same rounds
		before := ""
		if dir := os.Getenv("GOPCP_BENCH_REPLAY_BEFORE"); dir != "" {
			before = filepath.Join(dir, filepath.Base(c.ours))
		}
		var pr, or, br []toolRun
		for range rounds {
			pr = append(pr, timeTool(t, c.pcp, c.env, c.args...))
			or = append(or, timeTool(t, c.ours, c.env, c.args...))
			if before != "" {
				br = append(br, timeTool(t, before, c.env, c.args...))
			}
		}
		r := replayResult{c: c, pcp: medianRuns(pr), ours: medianRuns(or), pcpRuns: pr, ourRuns: or}
		if br != nil {
			m := medianRuns(br)
			r.before = &m
			if br[0].sum != or[0].sum || br[0].errText != or[0].errText {
				t.Errorf("%s: the build before prints another output than this one", c.label)
			}
		}
		r.lines = pr[0].lines
		r.outputsIdentical = pr[0].sum == or[0].sum && pr[0].errText == or[0].errText
		if !r.outputsIdentical {
			t.Errorf("%s: outputs differ: PCP %d lines (stderr %q), ours %d lines (stderr %q); first lines:\nPCP:  %q\nours: %q",
				c.label, pr[0].lines, firstLine(pr[0].errText), or[0].lines, firstLine(or[0].errText), pr[0].head, or[0].head)
		}
		t.Logf("%s: %d lines; PCP wall %.2f s, CPU %.2f s, peak RSS %.1f MiB; ours wall %.2f s, CPU %.2f s, peak RSS %.1f MiB; PCP/ours CPU %.2f, RSS %.2f",
			c.label, r.lines, r.pcp.wall, r.pcp.cpu, r.pcp.rssKB/1024, r.ours.wall, r.ours.cpu, r.ours.rssKB/1024,
			ratio(r.pcp.cpu, r.ours.cpu), ratio(r.pcp.rssKB, r.ours.rssKB))
		if r.before != nil {
			t.Logf("%s: before CPU %.2f s, peak RSS %.1f MiB", c.label, r.before.cpu, r.before.rssKB/1024)
		}
		out = append(out, r)
	}
	return out
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// replayTable is results as a markdown table, ratios PCP / ours (above 1:
// ours uses less).
func replayTable(results []replayResult) string {
	var b strings.Builder
	b.WriteString("| command | lines | PCP wall s | ours wall s | PCP CPU s | ours CPU s | CPU PCP/ours | PCP peak MiB | ours peak MiB | RSS PCP/ours |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range results {
		fmt.Fprintf(&b, "| `%s` | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.1f | %.1f | %.2f |\n",
			r.c.label, r.lines, r.pcp.wall, r.ours.wall, r.pcp.cpu, r.ours.cpu, ratio(r.pcp.cpu, r.ours.cpu),
			r.pcp.rssKB/1024, r.ours.rssKB/1024, ratio(r.pcp.rssKB, r.ours.rssKB))
	}
	if len(results) > 0 && results[0].before != nil {
		b.WriteString("\nPeak MiB, medians (max), with the build before (GOPCP_BENCH_REPLAY_BEFORE):\n\n")
		b.WriteString("| command | PCP | before | this build | CPU s PCP / before / this |\n|---|---:|---:|---:|---:|\n")
		for _, r := range results {
			if r.before == nil {
				continue
			}
			fmt.Fprintf(&b, "| `%s` | %.2f (%.2f) | %.2f | %.2f (%.2f) | %.2f / %.2f / %.2f |\n", r.c.label,
				r.pcp.rssKB/1024, maxRSS(r.pcpRuns)/1024, r.before.rssKB/1024, r.ours.rssKB/1024, maxRSS(r.ourRuns)/1024,
				r.pcp.cpu, r.before.cpu, r.ours.cpu)
		}
	}
	return b.String()
}

// maxRSS is the largest peak RSS of runs, KiB.
func maxRSS(runs []toolRun) float64 {
	m := 0.0
	for _, r := range runs {
		m = max(m, r.rssKB)
	}
	return m
}

// ourTools gives this tree's replay tools, each built once (or taken
// from GOPCP_BENCH_REPLAY_BIN, to time another build), by name. With
// GOPCP_BENCH_REPLAY_BEFORE at a directory of another build's tools,
// runSideBySide runs those too in each round and the table adds them.
func ourTools(t *testing.T) func(name string) string {
	t.Helper()
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		t.Skip("no /usr/bin/time (Debian's time package) for peak RSS:", err)
	}
	return func(name string) string { return ourCommand(t, "GOPCP_BENCH_REPLAY_BIN", name) }
}

// pcpTool is PCP's program of that name, or skips the test.
func pcpTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skip("no PCP "+name+":", err)
	}
	return p
}
