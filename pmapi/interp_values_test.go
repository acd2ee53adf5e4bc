package pmapi

import (
	"math"
	"runtime"
	"testing"
	"unsafe"

	"github.com/gopcp/gopcp/pcp"
)

// TestSeries: the values of an instance's history come back by position
// as they were added, blocks of every type and length the wire carries
// included (and a value whose block it cannot carry, kept whole), the
// searches by time find what a search of a slice finds, and a long
// history allocates less than twice its size (a slice grown by append
// allocated about five times).
func TestSeries(t *testing.T) {
	ip := &interpolator{}
	value := func(i int) pcp.Value {
		v := pcp.Value{LVal: int32(-i)}
		switch i % 5 {
		case 1:
			v.Block = pcp.ValueBlock{Type: pcp.TypeU64, Data: ip.keepBlock([]byte{1, 2, 3, 4, 5, 6, 7, byte(i)})}
		case 2:
			v.Block = pcp.ValueBlock{Type: 0xff, Data: ip.keepBlock(make([]byte, i%300))}
		case 3:
			v.Block = pcp.ValueBlock{Type: pcp.TypeNoSupport, Data: []byte{byte(i)}}
		case 4:
			v.Block.Type = pcp.TypeString
		}
		return v
	}
	same := func(a, b pcp.Value) bool {
		return a.LVal == b.LVal && a.Block.Type == b.Block.Type && string(a.Block.Data) == string(b.Block.Data) &&
			(a.Block.Data == nil) == (b.Block.Data == nil) && cap(b.Block.Data) == len(b.Block.Data)
	}
	for _, n := range []int{0, 1, chunkLen - 1, chunkLen, chunkLen + 1, 3*chunkLen + 7} {
		var is iseries
		var times []float64
		for i := range n {
			tm := float64(i / 2) // two values a time, as around damage read back
			is.add(tm, value(i))
			times = append(times, tm)
		}
		if is.len() != n {
			t.Fatalf("n %d: %d values", n, is.len())
		}
		for i := range n {
			if got := is.value(i); is.time(i) != times[i] || !same(value(i), got) {
				t.Fatalf("n %d: value %d is %+v at %v, want %+v at %v", n, i, got, is.time(i), value(i), times[i])
			}
		}
		for q := -1.0; q <= float64(n/2)+1; q += 0.5 {
			after, atOrAfter, last := len(times), len(times), math.Inf(-1)
			for i := len(times) - 1; i >= 0; i-- {
				if times[i] > q {
					after = i
				}
				if times[i] >= q {
					atOrAfter = i
				}
			}
			for i := range times {
				if times[i] < q {
					last = times[i]
				}
			}
			if got := is.after(q); got != after {
				t.Fatalf("n %d: after(%v) %d, want %d", n, q, got, after)
			}
			if got := is.atOrAfter(q); got != atOrAfter {
				t.Fatalf("n %d: atOrAfter(%v) %d, want %d", n, q, got, atOrAfter)
			}
			if got := is.lastBefore(q); got != last {
				t.Fatalf("n %d: lastBefore(%v) %v, want %v", n, q, got, last)
			}
		}
	}
	const n = 100_000
	var is iseries
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	for i := range n {
		is.add(float64(i), pcp.Value{LVal: int32(i)})
	}
	runtime.ReadMemStats(&ms1)
	size := uint64(n) * uint64(unsafe.Sizeof(sample{}))
	if got := ms1.TotalAlloc - ms0.TotalAlloc; got > 2*size {
		t.Errorf("%d bytes allocated for %d bytes of samples", got, size)
	}
}
