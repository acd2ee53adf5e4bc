package mmv

import (
	"errors"
	"testing"
)

// TestZeroItem: item 0 is given when asked for, once.
func TestZeroItem(t *testing.T) {
	r, err := New("zero", Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	m, err := r.AddMetric("pid", Uint32, SemDiscrete, MetricOptions{ZeroItem: true})
	if err != nil || m.Item() != 0 {
		t.Fatalf("ZeroItem: %v, item %v", err, m)
	}
	if d, err := r.AddMetric("derived", Uint32, SemInstant, MetricOptions{}); err != nil || d.Item() == 0 {
		t.Errorf("derived item: %v, %v", d, err)
	}
	if _, err := r.AddMetric("again", Uint32, SemInstant, MetricOptions{ZeroItem: true}); !errors.Is(err, ErrExists) {
		t.Errorf("item 0 twice: %v, want ErrExists", err)
	}
}
