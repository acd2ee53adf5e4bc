package main

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
	"github.com/gopcp/gopcp/mmv"
)

// files gathers MMV files of every kind into a temporary directory:
// libpcp_mmv's (the writer harness's scenarios, versions 1 to 3 with
// labels, and 400 metrics), package mmv's, and PCP's QA files.
func files(t *testing.T) []string {
	t.Helper()
	if _, err := os.Stat("/usr/include/pcp/mmv_stats.h"); err != nil {
		pcptest.Missing(t, "libpcp-mmv1-dev is not installed")
	}
	if _, err := exec.LookPath("xz"); err != nil {
		pcptest.Missing(t, "xz is not installed")
	}
	writer := pcptest.HarnessWith(t, "../../mmv/testdata/harness/writer.c", "-O1", "-Wl,--no-as-needed", "-lpcp_mmv")
	dir := t.TempDir()
	var paths []string
	for _, sc := range []string{"v1", "v1-noprefix", "v2", "v3", "many"} {
		p := filepath.Join(dir, "c-"+sc)
		cmd := exec.Command(writer, sc, p, "wait")
		stdin, _ := cmd.StdinPipe()
		stdout, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { stdin.Close(); cmd.Wait() })
		buf := make([]byte, 6)
		if _, err := io.ReadFull(stdout, buf); err != nil {
			t.Fatalf("writer %s: %v", sc, err)
		}
		paths = append(paths, p)
	}
	r, err := mmv.New("go", mmv.Options{Dir: dir, Flags: mmv.NoPrefix | mmv.Sentinel, Labels: []mmv.Label{mmv.StringLabel("app", "x")}})
	if err != nil {
		t.Fatal(err)
	}
	d, _ := r.AddInDom([]mmv.Instance{{ID: 1, Name: "a", Labels: []mmv.Label{mmv.NumberLabel("n", 1)}}, {ID: 2, Name: strings.Repeat("long", 20)}}, mmv.InDomOptions{ShortHelp: "d", LongHelp: "domain"})
	cv, _ := r.CounterVec("c", d, mmv.MetricOptions{ShortHelp: "c"})
	txt, _ := r.Text("s", mmv.MetricOptions{})
	g, _ := r.Gauge("g", mmv.MetricOptions{})
	tm, _ := r.Timer("t", mmv.MetricOptions{})
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	one, _ := cv.At(1)
	one.Add(3)
	txt.Set("text")
	g.Set(-2.5)
	tm.Add(7)
	paths = append(paths, r.Path())
	qa, _ := filepath.Glob("../../mmv/mmvfile/testdata/*.xz")
	for _, q := range qa {
		out, err := exec.Command("xz", "-dc", q).Output()
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, strings.TrimSuffix(filepath.Base(q), ".xz"))
		if err := os.WriteFile(p, out, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// TestSameAsPCP compares this mmvdump's output with PCP's on each file.
func TestSameAsPCP(t *testing.T) {
	pcpDump := filepath.Join(testbed.Need(t).Var("PCP_PMDAS_DIR"), "mmv", "mmvdump")
	if _, err := os.Stat(pcpDump); err != nil {
		pcptest.Missing(t, "PCP's mmvdump is not installed")
	}
	lines := 0
	for _, p := range files(t) {
		want, err := exec.Command(pcpDump, p).Output()
		if err != nil {
			t.Fatalf("PCP's mmvdump %s: %v", p, err)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if st := run(&got, p, b); st != 0 {
			t.Errorf("%s: status %d\n%s", filepath.Base(p), st, got.String())
		}
		if got.String() != string(want) {
			t.Errorf("%s: output differs\nPCP:\n%s\nours:\n%s", filepath.Base(p), want, got.String())
		}
		lines += bytes.Count(want, []byte("\n"))
	}
	t.Logf("%d lines the same", lines)
}

// TestBadFile checks a malformed file gets one line and status 1.
func TestBadFile(t *testing.T) {
	for _, b := range [][]byte{nil, []byte("MMV\x00"), append([]byte("XMV\x00"), make([]byte, 60)...)} {
		var out bytes.Buffer
		if st := run(&out, "f", b); st != 1 || strings.Count(out.String(), "\n") != 1 {
			t.Errorf("%q: status %d, output %q", b, st, out.String())
		}
	}
}
