package mmv

import (
	"errors"
	"os"
	"sync"
	"sync/atomic"
	"testing"
)

// TestConcurrentUpdates updates every kind of value from many goroutines
// (run it with -race): no update is lost, and the file holds the totals.
func TestConcurrentUpdates(t *testing.T) {
	r, _ := New("conc", Options{Dir: t.TempDir()})
	d, _ := r.AddInDom([]Instance{{ID: 1, Name: "a"}, {ID: 2, Name: "b"}}, InDomOptions{})
	cv, _ := r.CounterVec("cv", d, MetricOptions{})
	g, _ := r.Gauge("g", MetricOptions{})
	i32, _ := r.AddMetric("i32", Int32, SemInstant, MetricOptions{})
	f32, _ := r.AddMetric("f32", Float, SemCounter, MetricOptions{})
	tm, _ := r.Timer("t", MetricOptions{})
	h, _ := r.Histogram("h", HistogramOptions{Bounds: []float64{1, 10}})
	txt, _ := r.Text("s", MetricOptions{})
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	const workers, n = 8, 2000
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a, _ := cv.With("a")
			b, _ := cv.At(2)
			v32, vf := i32.Value(), f32.Value()
			for i := range n {
				a.Inc()
				b.Add(2)
				g.Add(0.5)
				v32.Add(-1)
				vf.AddFloat(1)
				tm.Add(3)
				h.Observe(float64(i % 20))
				if i%100 == 0 {
					txt.Set("worker " + itoa(w))
				}
			}
		}()
	}
	wg.Wait()
	got := map[string]uint64{}
	for _, m := range readDecoded(t, r.Path()).Metrics {
		for _, v := range m.Values {
			got[m.Name+"["+v.Inst+"]"] = v.Atom
		}
	}
	total := uint64(workers * n)
	checks := []struct {
		name string
		want string
		got  string
	}{
		{"cv[a]", itoa(int(total)), itoa(int(got["cv[a]"]))},
		{"cv[b]", itoa(int(2 * total)), itoa(int(got["cv[b]"]))},
		{"g", "8000", decodedValue{Atom: got["g[]"]}.format(Double, 0)},
		{"i32", "-16000", decodedValue{Atom: got["i32[]"]}.format(Int32, 0)},
		{"f32", "16000", decodedValue{Atom: got["f32[]"]}.format(Float, 0)},
		{"t", itoa(int(3 * total)), itoa(int(got["t[]"]))},
		{"h.count", itoa(int(total)), itoa(int(got["h.count[]"]))},
		{"h.bucket[1]", itoa(2 * workers * n / 20), itoa(int(got["h.bucket[1]"]))},
		{"h.bucket[10]", itoa(9 * workers * n / 20), itoa(int(got["h.bucket[10]"]))},
		{"h.bucket[+Inf]", itoa(9 * workers * n / 20), itoa(int(got["h.bucket[+Inf]"]))},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %s, want %s", c.name, c.got, c.want)
		}
	}
}

// TestRewriteWhileReadingAndUpdating adds metrics and instances after
// Start (each a rewrite with a new generation) while goroutines update a
// counter and a reader keeps reading the file: the reader never gets a
// half-written file (a file it finds in flux is one a rewrite replaced
// and marked so, complete otherwise), sees the generation grow, and at the
// end the counter holds every update.
func TestRewriteWhileReadingAndUpdating(t *testing.T) {
	r, _ := New("live", Options{Dir: t.TempDir()})
	d, _ := r.AddInDom([]Instance{{ID: 0, Name: "i0"}}, InDomOptions{})
	c, _ := r.Counter("count", MetricOptions{})
	cv, _ := r.CounterVec("per", d, MetricOptions{})
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	const workers, n, rewrites = 4, 5000, 40
	var wg sync.WaitGroup
	var done atomic.Bool
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p0, _ := cv.At(0)
			for range n {
				c.Inc()
				p0.Inc()
			}
		}()
	}
	readErr := make(chan error, 1)
	var reads, flux int
	go func() {
		var lastGen uint64
		for !done.Load() {
			b, err := os.ReadFile(r.Path())
			if err != nil {
				readErr <- err
				return
			}
			dec, err := decodeFile(b)
			if errors.Is(err, errInFlux) {
				// A replaced file: its second generation was zeroed
				// after the rename, the rest must be whole.
				if le.Uint64(b[hdrG2:]) != 0 {
					readErr <- errors.New("file in flux with a nonzero second generation")
					return
				}
				le.PutUint64(b[hdrG2:], le.Uint64(b[hdrG1:]))
				if _, err := decodeFile(b); err != nil {
					readErr <- err
					return
				}
				flux++
				continue
			}
			if err != nil {
				readErr <- err
				return
			}
			if dec.Gen < lastGen {
				readErr <- errors.New("generation went back")
				return
			}
			lastGen = dec.Gen
			reads++
		}
		readErr <- nil
	}()
	for i := range rewrites {
		if i%2 == 0 {
			if _, err := r.Gauge("added"+itoa(i), MetricOptions{}); err != nil {
				t.Fatal(err)
			}
		} else if err := d.AddInstance(Instance{ID: int32(i), Name: "i" + itoa(i)}); err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
	done.Store(true)
	if err := <-readErr; err != nil {
		t.Fatalf("reader: %v", err)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	dec := readDecoded(t, r.Path())
	if len(dec.Metrics) != 2+rewrites/2 {
		t.Errorf("%d metrics in the file, want %d", len(dec.Metrics), 2+rewrites/2)
	}
	for _, m := range dec.Metrics {
		switch m.Name {
		case "count":
			if m.Values[0].Atom != workers*n {
				t.Errorf("count = %d, want %d", m.Values[0].Atom, workers*n)
			}
		case "per":
			if len(m.Values) != 1+rewrites/2 || m.Values[0].Atom != workers*n {
				t.Errorf("per: %d values, first %d", len(m.Values), m.Values[0].Atom)
			}
		}
	}
	t.Logf("%d reads (%d of replaced files) during %d rewrites", reads, flux, rewrites)
}

// TestUpdatesDoNotAllocate: every numeric update allocates nothing.
func TestUpdatesDoNotAllocate(t *testing.T) {
	r, _ := New("alloc", Options{Dir: t.TempDir()})
	c, _ := r.Counter("c", MetricOptions{})
	g, _ := r.Gauge("g", MetricOptions{})
	tm, _ := r.Timer("t", MetricOptions{})
	h, _ := r.Histogram("h", HistogramOptions{Bounds: []float64{1, 2}})
	m, _ := r.AddMetric("f", Float, SemInstant, MetricOptions{})
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	v := m.Value()
	for name, f := range map[string]func(){
		"Counter.Inc": c.Inc, "Counter.Add": func() { c.Add(3) }, "Gauge.Set": func() { g.Set(1) },
		"Gauge.Add": func() { g.Add(1) }, "Timer": func() { tm.Start(); tm.Stop() },
		"Histogram.Observe": func() { h.Observe(1.5) }, "Value.AddFloat": func() { v.AddFloat(1) },
		"Value.Set": func() { v.Set(2) }, "Value.SetSentinel": v.SetSentinel,
	} {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s allocates %v times", name, n)
		}
	}
}
