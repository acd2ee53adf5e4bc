package mmv

import (
	"errors"
	"os"
	"sync"
	"testing"
)

// TestSingleWriter: a SingleCounter's updates reach the file exactly
// while one goroutine writes and another reads; the registry then refuses
// every addition with ErrPinned, leaving the file as it was; the handle
// needs a started registry and a Uint64 value of it; after Close its
// updates are harmless.
func TestSingleWriter(t *testing.T) {
	r, err := New("single", Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	c, err := r.Counter("count", MetricOptions{})
	if err != nil {
		t.Fatal(err)
	}
	g, err := r.Gauge("level", MetricOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := r.AddInDom([]Instance{{ID: 1, Name: "one"}}, InDomOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.SingleWriter(c); !errors.Is(err, ErrInvalid) {
		t.Errorf("before Start: %v, want ErrInvalid", err)
	}
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	if _, err := r.SingleWriter(Counter{v: g.v}); !errors.Is(err, ErrInvalid) {
		t.Errorf("a Double: %v, want ErrInvalid", err)
	}
	other, _ := New("other", Options{Dir: t.TempDir()})
	oc, _ := other.Counter("count", MetricOptions{})
	other.Start()
	defer other.Close()
	if _, err := r.SingleWriter(oc); !errors.Is(err, ErrInvalid) {
		t.Errorf("another registry's counter: %v, want ErrInvalid", err)
	}
	s, err := r.SingleWriter(c)
	if err != nil {
		t.Fatal(err)
	}
	const n = 200000
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for range n {
			s.Inc()
		}
		s.Add(5)
	}()
	go func() { // a reader beside the writer sees counts only grow
		defer wg.Done()
		last := uint64(0)
		for range 1000 {
			v := c.Load()
			if v < last {
				t.Errorf("count went from %d to %d", last, v)
				return
			}
			last = v
		}
	}()
	wg.Wait()
	if got := decodeCount(t, r); got != n+5 {
		t.Errorf("file holds %d, want %d", got, n+5)
	}
	before, _ := os.ReadFile(r.Path())
	if _, err := r.Counter("more", MetricOptions{}); !errors.Is(err, ErrPinned) {
		t.Errorf("AddMetric when pinned: %v, want ErrPinned", err)
	}
	if _, err := r.AddInDom([]Instance{{ID: 1, Name: "x"}}, InDomOptions{}); !errors.Is(err, ErrPinned) {
		t.Errorf("AddInDom when pinned: %v, want ErrPinned", err)
	}
	if err := d.AddInstance(Instance{ID: 2, Name: "two"}); !errors.Is(err, ErrPinned) {
		t.Errorf("AddInstance when pinned: %v, want ErrPinned", err)
	}
	if after, _ := os.ReadFile(r.Path()); string(after) != string(before) {
		t.Error("a refused addition changed the file")
	}
	s.Inc()
	if got := s.Load(); got != n+6 {
		t.Errorf("Load %d, want %d", got, n+6)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	s.Inc() // lands in memory of its own
}

// decodeCount reads the first value of r's file through the tests'
// reader.
func decodeCount(t *testing.T, r *Registry) uint64 {
	t.Helper()
	b, err := os.ReadFile(r.Path())
	if err != nil {
		t.Fatal(err)
	}
	f, err := decodeFile(b)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range f.Metrics {
		if m.Name == "count" {
			return m.Values[0].Atom
		}
	}
	t.Fatal("no count metric")
	return 0
}
