package mmv_test

import (
	"runtime"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/mmv"
	"github.com/gopcp/gopcp/mmv/goruntime"
)

// TestExportRuntime has goruntime export the runtime's metrics and checks the file:
// names of the grammar with the unit last, no collision, and values that
// follow the runtime (goroutine count, GC cycles).
func TestExportRuntime(t *testing.T) {
	r, _ := mmv.New("gorun", mmv.Options{Dir: t.TempDir()})
	rt, err := goruntime.Export(r, "go")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	runtime.GC()
	rt.Update()
	metrics := mmv.ReadDecoded(t, r.Path())
	byName := map[string]mmv.DecodedMetric{}
	for _, m := range metrics {
		if err := mmv.CheckName("", m.Name); err != nil {
			t.Errorf("%s: %v", m.Name, err)
		}
		byName[m.Name] = m
	}
	if len(byName) < 30 {
		t.Fatalf("only %d runtime metrics", len(byName))
	}
	g, ok := byName["go.sched.goroutines.goroutines"]
	if !ok || g.Values[0].Atom < 1 {
		t.Errorf("goroutines: %+v", g)
	}
	gc, ok := byName["go.gc.cycles.total.gc_cycles"]
	if !ok || gc.Values[0].Atom < 1 || gc.Sem != mmv.SemCounter {
		t.Errorf("gc cycles: %+v", gc)
	}
	var hist int
	for _, m := range metrics {
		if len(m.Values) > 1 {
			hist++
		}
	}
	if hist == 0 {
		t.Error("no runtime histogram exported")
	}
	if allocs := testing.AllocsPerRun(10, rt.Update); allocs != 0 {
		t.Errorf("Update allocates %v times", allocs)
	}
}

// TestPMDAMMVServesRuntime: PCP's pmdammv serves every metric Export
// writes (no name refused, no item dropped as a duplicate).
func TestPMDAMMVServesRuntime(t *testing.T) {
	bed, dir := mmv.StartMMVBed(t)
	r, _ := mmv.New("gorun", mmv.Options{Dir: dir})
	if _, err := goruntime.Export(r, "go"); err != nil {
		t.Fatal(err)
	}
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	res := bed.Run("pminfo", "mmv.gorun")
	if res.Err != nil {
		t.Fatalf("pminfo: %v\n%s", res.Err, res.Stderr)
	}
	served := strings.Fields(res.Stdout)
	want := len(mmv.ReadDecoded(t, r.Path()))
	if len(served) != want {
		t.Errorf("pmdammv serves %d names, the file holds %d metrics", len(served), want)
	}
	res = bed.Run("pminfo", "-f", "mmv.gorun.go.sched.goroutines.goroutines")
	if res.Err != nil || !strings.Contains(res.Stdout, "value ") {
		t.Errorf("goroutines: %v\n%s%s", res.Err, res.Stdout, res.Stderr)
	}
}
