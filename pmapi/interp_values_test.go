package pmapi

import (
	"runtime"
	"testing"
	"unsafe"

	"github.com/gopcp/gopcp/pcp"
)

// TestValueList: the values of an instance's history come back by
// position, and a long history allocates less than twice its size (a
// slice grown by append allocated about five times).
func TestValueList(t *testing.T) {
	for _, n := range []int{0, 1, valueChunk - 1, valueChunk, valueChunk + 1, 100_000} {
		var l valueList
		var ms0, ms1 runtime.MemStats
		runtime.ReadMemStats(&ms0)
		for i := range n {
			l.add(pcp.Value{Inst: int32(i), LVal: int32(-i)})
		}
		runtime.ReadMemStats(&ms1)
		for i := range n {
			if v := l.at(i); v.Inst != int32(i) || v.LVal != int32(-i) {
				t.Fatalf("n %d: value %d is %+v", n, i, *v)
			}
		}
		size := uint64(n) * uint64(unsafe.Sizeof(pcp.Value{}))
		if got := ms1.TotalAlloc - ms0.TotalAlloc; n >= 100_000 && got > 2*size {
			t.Errorf("n %d: %d bytes allocated for %d bytes of values", n, got, size)
		}
	}
}
