package pmproxy

import (
	"runtime/metrics"
	"testing"
)

var sink [][]byte

func forcedGCs(t *testing.T) uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/forced:gc-cycles"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		t.Fatal("no forced GC count in runtime/metrics")
	}
	return s[0].Value.Uint64()
}

// TestMemTrimmerOnlyAfterAllocation: the first call hands back, a call
// with nothing allocated since does not collect, and one after a few MiB
// were allocated and dropped does, so an idle pmproxy is left alone.
func TestMemTrimmerOnlyAfterAllocation(t *testing.T) {
	var m memTrimmer
	steps := []struct {
		name     string
		allocate int // bytes allocated and dropped before the call
		want     bool
	}{
		{"first", 0, true},
		{"idle", 0, false},
		{"idle again", 0, false},
		{"after 4 MiB", 4 << 20, true},
		{"idle after", 0, false},
	}
	for _, s := range steps {
		for n := 0; n < s.allocate; n += 64 << 10 {
			sink = append(sink, make([]byte, 64<<10))
		}
		sink = nil
		before := forcedGCs(t)
		got := m.trim()
		gcs := forcedGCs(t) - before
		if got != s.want {
			t.Errorf("%s: trim() = %v, want %v", s.name, got, s.want)
		}
		if (gcs > 0) != s.want {
			t.Errorf("%s: %d forced collections, want them only when handing back", s.name, gcs)
		}
	}
}
