package mmv_test

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	gommv "github.com/gopcp/gopcp/mmv"
)

// beds starts PCP's pmcd with PCP's pmdammv and gopcp's pmcd with this
// agent, each with a private PCP_TMP_DIR, and returns them with their mmv
// directories.
func beds(t *testing.T) (pcpBed, goBed *testbed.PMCD, pcpDir, goDir string) {
	t.Helper()
	in := testbed.Need(t)
	if _, err := os.Stat(filepath.Join(in.Var("PCP_PMDAS_DIR"), "mmv", "pmda_mmv.so")); err != nil {
		pcptest.Missing(t, "PCP's pmda_mmv.so is not installed")
	}
	root := "$PCP_PMDAS_DIR/mmv/root_mmv"
	pcpBed = testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{
		testbed.PMCDAgent(),
		testbed.DSOAgent("mmv", 70, "$PCP_PMDAS_DIR/mmv/pmda_mmv.so", "mmv_init", root),
	}})
	goBed = testbed.StartGoPMCD(t, testbed.Options{Agents: []testbed.Agent{
		testbed.PMCDAgent(),
		testbed.GoDSOAgent("mmv", 70, "mmv_init", root),
	}})
	pcpDir = filepath.Join(pcpBed.Dir(), "tmp", "mmv")
	goDir = filepath.Join(goBed.Dir(), "tmp", "mmv")
	for _, d := range []string{pcpDir, goDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return
}

// libpcpFile writes scenario's registry with PCP's libpcp_mmv at path and
// keeps the writer alive (for Process-flagged files) until the test ends.
func libpcpFile(t *testing.T, writer, scenario, path string) {
	t.Helper()
	cmd := exec.Command(writer, scenario, path, "wait")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Wait() })
	buf := make([]byte, 6)
	if _, err := io.ReadFull(stdout, buf); err != nil || string(buf) != "ready\n" {
		t.Fatalf("writer %s: %q %v", scenario, buf, err)
	}
}

func writerHarness(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat("/usr/include/pcp/mmv_stats.h"); err != nil {
		pcptest.Missing(t, "libpcp-mmv1-dev is not installed")
	}
	return pcptest.HarnessWith(t, "../../mmv/testdata/harness/writer.c", "-O1", "-Wl,--no-as-needed", "-lpcp_mmv")
}

// goFile writes a registry with package mmv: labels at every level,
// strings, an elapsed timer, a histogram, many metrics.
func goFile(t *testing.T, dir, name string) {
	t.Helper()
	r, err := gommv.New(name, gommv.Options{Dir: dir, Flags: gommv.Sentinel, Labels: []gommv.Label{gommv.StringLabel("app", name)}})
	if err != nil {
		t.Fatal(err)
	}
	d, err := r.AddInDom([]gommv.Instance{{ID: 1, Name: "one", Labels: []gommv.Label{gommv.NumberLabel("n", 1)}}, {ID: 2, Name: "two"}},
		gommv.InDomOptions{Serial: 5, ShortHelp: "numbers", Labels: []gommv.Label{gommv.StringLabel("kind", "num")}})
	if err != nil {
		t.Fatal(err)
	}
	cv, err := r.CounterVec("hits", d, gommv.MetricOptions{ShortHelp: "hits", LongHelp: "hits by number", Labels: []gommv.Label{gommv.StringLabel("u", "x")}})
	if err != nil {
		t.Fatal(err)
	}
	txt, _ := r.Text("state", gommv.MetricOptions{ShortHelp: "state"})
	empty, _ := r.Text("empty", gommv.MetricOptions{})
	_ = empty
	tm, _ := r.Timer("busy", gommv.MetricOptions{})
	h, _ := r.Histogram("lat", gommv.HistogramOptions{Bounds: []float64{1, 10, 100}})
	for i := range 300 {
		g, err := r.Gauge("g"+strings.Repeat("x", i%3)+itoa(i), gommv.MetricOptions{})
		if err != nil {
			t.Fatal(err)
		}
		g.Set(float64(i) / 4)
	}
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	one, _ := cv.At(1)
	one.Add(41)
	txt.Set("running")
	tm.Add(1234)
	h.Observe(5)
	h.Observe(500)
}

func itoa(i int) string {
	return strings.TrimLeft(strings.Repeat("0", 1)+string(rune('0'+i/100))+string(rune('0'+i/10%10))+string(rune('0'+i%10)), "")
}

// qaFiles copies PCP's QA MMV files (from mmv/mmvfile/testdata) into dir.
func qaFiles(t *testing.T, dir string) {
	t.Helper()
	names, _ := filepath.Glob("../../mmv/mmvfile/testdata/*.xz")
	if len(names) == 0 {
		t.Fatal("no QA files")
	}
	if _, err := exec.LookPath("xz"); err != nil {
		pcptest.Missing(t, "xz is not installed")
	}
	for _, n := range names {
		out, err := exec.Command("xz", "-dc", n).Output()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, strings.TrimSuffix(filepath.Base(n), ".xz")), out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// served is what PCP's tools see under the mmv name of a bed.
func served(t *testing.T, bed *testbed.PMCD, args ...string) string {
	t.Helper()
	r := bed.Run("pminfo", append(args, "mmv")...)
	if r.Err != nil && r.Stdout == "" {
		t.Fatalf("pminfo %v: %v\n%s", args, r.Err, r.Stderr)
	}
	return r.Stdout + r.Stderr
}

// fileSet puts a set of files in dir.
type fileSet struct {
	name string
	put  func(t *testing.T, writer, dir string)
}

func qaOnly(name string) func(t *testing.T, writer, dir string) {
	return func(t *testing.T, writer, dir string) {
		qaFiles(t, dir)
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if e.Name() != name {
				os.Remove(filepath.Join(dir, e.Name()))
			}
		}
	}
}

var fileSets = []fileSet{
	{"libpcp_mmv", func(t *testing.T, writer, dir string) {
		for _, sc := range []string{"v1", "v1-noprefix", "v2", "v3"} {
			libpcpFile(t, writer, sc, filepath.Join(dir, "c"+strings.ReplaceAll(sc, "-", "")))
		}
	}},
	{"libpcp_mmv-many", func(t *testing.T, writer, dir string) { libpcpFile(t, writer, "many", filepath.Join(dir, "cmany")) }},
	{"package-mmv", func(t *testing.T, writer, dir string) { goFile(t, dir, "gofile") }},
	{"qa-pytest", qaOnly("pytest")},
	{"qa-KeyboardReader", qaOnly("KeyboardReader")},
	{"qa-large-parfait", qaOnly("large-parfait")},
	{"all", func(t *testing.T, writer, dir string) {
		for _, sc := range []string{"v1", "v1-noprefix", "v2", "v3", "many"} {
			libpcpFile(t, writer, sc, filepath.Join(dir, "c"+strings.ReplaceAll(sc, "-", "")))
		}
		goFile(t, dir, "gofile")
		qaFiles(t, dir)
	}},
}

// pcpDown is how PCP's tools report that pmcd went away mid-answer.
const pcpDown = "IPC protocol failure"

// TestServedLikePMDAMMV puts the same files in the directories of PCP's
// pmdammv and of this agent and compares what pminfo shows of them:
// names, PMIDs, descriptors, help, labels and values. Where PCP's pmcd
// goes down on a set (pmdammv crashing inside it), this agent must still
// answer everything.
func TestServedLikePMDAMMV(t *testing.T) {
	writer := writerHarness(t)
	for _, set := range fileSets {
		t.Run(set.name, func(t *testing.T) {
			pcpBed, goBed, pcpDir, goDir := beds(t)
			set.put(t, writer, pcpDir)
			set.put(t, writer, goDir)
			for _, args := range [][]string{{"-m"}, {"-dfTl"}} {
				want := served(t, pcpBed, args...)
				got := served(t, goBed, args...)
				if d := os.Getenv("MMV_COMPARE_OUT"); d != "" {
					os.WriteFile(filepath.Join(d, set.name+"-pcp"+strings.Join(args, "")), []byte(want), 0o644)
					os.WriteFile(filepath.Join(d, set.name+"-go"+strings.Join(args, "")), []byte(got), 0o644)
				}
				if strings.Contains(got, pcpDown) {
					t.Fatalf("pminfo %v: our pmcd went down:\n%s", args, got)
				}
				if strings.Contains(want, pcpDown) {
					t.Logf("pminfo %v: PCP's pmcd went down on this set; ours answered %d lines", args, strings.Count(got, "\n"))
					continue
				}
				want, got = maskControlHelp(want), maskControlHelp(got)
				if got != want {
					t.Errorf("pminfo %v differs:\n%s", args, lineDiff(want, got))
				}
				t.Logf("pminfo %v: %d lines the same", args, strings.Count(want, "\n"))
			}
		})
	}
}

// lineDiff lists the lines of want and got that differ, in order.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b bytes.Buffer
	n := 0
	for i := 0; i < max(len(w), len(g)) && n < 40; i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			b.WriteString("  pcp:  " + wl + "\n  ours: " + gl + "\n")
			n++
		}
	}
	return b.String()
}

// maskControlHelp hides the help of the control metrics, which is ours
// and not pmdammv's words: the one-line text, and the lines of the full
// text (unindented prose after "Help:") in each mmv.control.* block.
func maskControlHelp(s string) string {
	var out []string
	inControl, inHelp := false, false
	for _, line := range strings.Split(s, "\n") {
		switch {
		case strings.HasPrefix(line, "mmv."):
			inControl, inHelp = strings.HasPrefix(line, "mmv.control."), false
		case line == "" || strings.HasPrefix(line, " "):
			inHelp = false
		case inControl && line == "Help:":
			inHelp = true
			out = append(out, line, "MASKED")
			continue
		case inHelp:
			continue
		}
		if inControl && strings.HasPrefix(line, "One-line Help: ") {
			line = "One-line Help: MASKED"
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}
