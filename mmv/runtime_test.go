package mmv

import (
	"runtime"
	"testing"
)

// TestExportRuntime exports the runtime's metrics and checks the file:
// names of the grammar with the unit last, no collision, and values that
// follow the runtime (goroutine count, GC cycles).
func TestExportRuntime(t *testing.T) {
	r, _ := New("gorun", Options{Dir: t.TempDir()})
	rt, err := ExportRuntime(r, "go")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	runtime.GC()
	rt.Update()
	d := readDecoded(t, r.Path())
	byName := map[string]decodedMetric{}
	for _, m := range d.Metrics {
		if err := checkName("", m.Name); err != nil {
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
	if !ok || gc.Values[0].Atom < 1 || gc.Sem != SemCounter {
		t.Errorf("gc cycles: %+v", gc)
	}
	var hist int
	for _, m := range d.Metrics {
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
