package mmv

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// startMMVBed starts PCP's pmcd with PCP's pmdammv as a DSO agent and
// returns it with the mmv directory of its private PCP_TMP_DIR.
func startMMVBed(t *testing.T) (*testbed.PMCD, string) {
	t.Helper()
	in := testbed.Need(t)
	pmdas := in.Var("PCP_PMDAS_DIR")
	if _, err := os.Stat(filepath.Join(pmdas, "mmv", "pmda_mmv.so")); err != nil {
		pcptest.Missing(t, "PCP's pmda_mmv.so is not installed")
	}
	bed := testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{
		testbed.PMCDAgent(),
		testbed.DSOAgent("mmv", 70, "$PCP_PMDAS_DIR/mmv/pmda_mmv.so", "mmv_init", "$PCP_PMDAS_DIR/mmv/root_mmv"),
	}})
	dir := filepath.Join(bed.Dir(), "tmp", "mmv")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return bed, dir
}

// served is what PCP's tools see of the mmv agent, after making it
// rescan its directory.
func served(t *testing.T, bed *testbed.PMCD) string {
	t.Helper()
	if r := bed.Run("pmstore", "mmv.control.reload", "1"); r.Err != nil {
		t.Fatalf("pmstore: %v\n%s", r.Err, r.Stderr)
	}
	r := bed.Run("pminfo", "-dfTl", "mmv")
	if r.Err != nil {
		t.Fatalf("pminfo: %v\n%s%s", r.Err, r.Stdout, r.Stderr)
	}
	return r.Stdout
}

// TestPMDAMMVServesSame has PCP's pmdammv, under a private PCP pmcd, serve
// a file written by libpcp_mmv and then the same registry written by this
// package: names, PMIDs, instance domains, descriptors, help text, labels,
// values and missing values must be the same.
func TestPMDAMMVServesSame(t *testing.T) {
	writer := writerHarness(t)
	bed, dir := startMMVBed(t)
	path := filepath.Join(dir, "acme")
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			// The C writer stays alive while it is read, so that a
			// Process-flagged file is not dropped as its owner's.
			cmd := exec.Command(writer, sc.name, path, "wait")
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
			buf := make([]byte, 6)
			if _, err := io.ReadFull(stdout, buf); err != nil || string(buf) != "ready\n" {
				stdin.Close()
				cmd.Wait()
				t.Fatalf("writer did not start: %v %q", err, buf)
			}
			want := served(t, bed)
			stdin.Close()
			if err := cmd.Wait(); err != nil {
				t.Fatal(err)
			}
			os.Remove(path)

			r := sc.run(t, dir, "acme")
			got := served(t, bed)
			r.Close()
			os.Remove(path)
			if !strings.Contains(want, "mmv.") || strings.Count(want, "\n") < 10 {
				t.Fatalf("pmdammv served too little of libpcp_mmv's file:\n%s", want)
			}
			if showServed {
				t.Logf("served:\n%s", got)
			}
			if got != want {
				t.Errorf("pmdammv serves our file differently\n--- libpcp_mmv\n%s\n--- ours\n%s\n%s", want, got, lineDiff(want, got))
			} else {
				t.Logf("pminfo -dfTl mmv: %d lines the same", strings.Count(want, "\n"))
			}
		})
	}
}

func init() {
	if os.Getenv("MMV_SHOW") != "" {
		showServed = true
	}
}

var showServed bool // MMV_SHOW=1 logs what pmdammv served

// TestPMDAMMVNoticesRewrite: metrics and instances added after Start
// reach PCP's pmdammv without any prompting (no mmv.control.reload): it
// sees the old file's generation change and rescans.
func TestPMDAMMVNoticesRewrite(t *testing.T) {
	bed, dir := startMMVBed(t)
	r, err := New("live", Options{Dir: dir, Cluster: 77})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	first, _ := r.Counter("first", MetricOptions{Item: 1})
	d, _ := r.AddInDom([]Instance{{ID: 1, Name: "one"}}, InDomOptions{Serial: 1})
	per, _ := r.CounterVec("per", d, MetricOptions{Item: 2})
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	first.Add(5)
	fetch := func(names ...string) string {
		t.Helper()
		res := bed.Run("pminfo", append([]string{"-f"}, names...)...)
		if res.Err != nil {
			t.Fatalf("pminfo: %v\n%s%s", res.Err, res.Stdout, res.Stderr)
		}
		return res.Stdout
	}
	if got := fetch("mmv.live.first"); !strings.Contains(got, "value 5") {
		t.Fatalf("before the rewrite:\n%s", got)
	}
	second, err := r.Gauge("second", MetricOptions{Item: 3})
	if err != nil {
		t.Fatal(err)
	}
	second.Set(2.5)
	if err := d.AddInstance(Instance{ID: 2, Name: "two"}); err != nil {
		t.Fatal(err)
	}
	two, _ := per.At(2)
	two.Add(9)
	first.Inc()
	got := fetch("mmv.live.first", "mmv.live.second", "mmv.live.per")
	for _, want := range []string{"value 6", "value 2.5", `inst [2 or "two"] value 9`} {
		if !strings.Contains(got, want) {
			t.Errorf("after the rewrite, no %q in:\n%s", want, got)
		}
	}
}

// TestPMDAMMVElapsedInProgress: a timed section in progress is counted by
// PCP's pmdammv from the start this package records. The section is made
// to have started an hour ago, so the served value is at least an hour of
// microseconds whatever the clock does meanwhile.
func TestPMDAMMVElapsedInProgress(t *testing.T) {
	bed, dir := startMMVBed(t)
	r, _ := New("timed", Options{Dir: dir, Cluster: 78})
	defer r.Close()
	tm, _ := r.Timer("busy", MetricOptions{Item: 1})
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	tm.Add(5)
	tm.Start()
	hourAgo := time.Now().Add(-time.Hour).UnixMicro()
	atomic.StoreInt64(&tm.v.v.Load().extra, -hourAgo)
	res := bed.Run("pminfo", "-f", "mmv.timed.busy")
	if res.Err != nil {
		t.Fatalf("pminfo: %v\n%s", res.Err, res.Stderr)
	}
	var v int64
	i := strings.Index(res.Stdout, "value ")
	if i < 0 {
		t.Fatalf("no value in %q", res.Stdout)
	}
	if _, err := fmt.Sscanf(res.Stdout[i:], "value %d", &v); err != nil {
		t.Fatalf("no value in %q: %v", res.Stdout, err)
	}
	if v < 5+3600e6 {
		t.Errorf("served %d µs, want at least an hour more than 5", v)
	}
	tm.Stop()
	if got := tm.v.Int(); got < 5+3600e6 {
		t.Errorf("after Stop the value is %d", got)
	}
}
