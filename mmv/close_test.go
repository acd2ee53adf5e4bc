package mmv

import (
	"sync"
	"sync/atomic"
	"testing"
)

// TestUpdateWhileClosing updates values from several goroutines while
// the registry closes, many times over: an update that took its value's
// address before Close and writes after it must land in harmless memory
// rather than crash the program (run it with -race too).
func TestUpdateWhileClosing(t *testing.T) {
	rounds := 200
	if testing.Short() {
		rounds = 20
	}
	dir := t.TempDir()
	for range rounds {
		r, err := New("closing", Options{Dir: dir, Flags: Process})
		if err != nil {
			t.Fatal(err)
		}
		c, _ := r.Counter("c", MetricOptions{})
		g, _ := r.Gauge("g", MetricOptions{})
		txt, _ := r.Text("s", MetricOptions{})
		tm, _ := r.Timer("t", MetricOptions{})
		if err := r.Start(); err != nil {
			t.Fatal(err)
		}
		var stop atomic.Bool
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for !stop.Load() {
					c.Inc()
					g.Add(1)
					txt.Set("x")
					tm.Start()
					tm.Stop()
				}
			}()
		}
		if err := r.Close(); err != nil {
			t.Error(err)
		}
		// Keep updating for a while after Close.
		for range 1000 {
			c.Inc()
		}
		stop.Store(true)
		wg.Wait()
	}
}
