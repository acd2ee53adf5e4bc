package pmapi

import (
	"testing"
	"unsafe"

	"github.com/gopcp/gopcp/pcp"
)

// TestSeriesPacked: values as an archive's decoding has them (LVal 0
// beside a block) come back whole from a series with the interpolator's
// kept blocks, each held the way its length allows: empty and insitu in
// the sample, up to inlineMax bytes in it too, longer ones by reference
// to the kept blocks, and only what cannot pack (a long block that is
// not the one last kept) in the wide map.
func TestSeriesPacked(t *testing.T) {
	if got := unsafe.Sizeof(sample{}); got != 16 {
		t.Fatalf("a sample is %d bytes, want 16", got)
	}
	ip := &interpolator{}
	is := &iseries{kept: &ip.kept}
	var want []pcp.Value
	add := func(v pcp.Value, keep bool) {
		if keep {
			v.Block.Data = ip.keepBlock(v.Block.Data)
		}
		is.add(float64(len(want)), v)
		want = append(want, v)
	}
	bytesOf := func(n, seed int) []byte {
		b := make([]byte, n)
		for j := range b {
			b[j] = byte(seed*7 + j)
		}
		return b
	}
	for i := range 3000 {
		switch i % 6 {
		case 0:
			add(pcp.Value{LVal: int32(i) - 1500}, false)
		case 1:
			add(pcp.Value{Block: pcp.ValueBlock{Type: pcp.TypeFloat, Data: bytesOf(4, i)}}, false)
		case 2:
			add(pcp.Value{Block: pcp.ValueBlock{Type: pcp.TypeU64, Data: bytesOf(8, i)}}, true)
		case 3:
			add(pcp.Value{Block: pcp.ValueBlock{Type: pcp.TypeString, Data: bytesOf(1+i%3, i)}}, false)
		case 4:
			// longer than a chunk: alone in its own
			add(pcp.Value{Block: pcp.ValueBlock{Type: pcp.TypeAggregate, Data: bytesOf(keptChunk+i%5, i)}}, true)
		case 5:
			add(pcp.Value{Block: pcp.ValueBlock{Type: pcp.TypeString, Data: bytesOf(40+i%50, i)}}, true)
		}
	}
	// a long block of the reader's own storage, not kept: wide
	add(pcp.Value{Block: pcp.ValueBlock{Type: pcp.TypeString, Data: bytesOf(20, 1)}}, false)
	for i, w := range want {
		got := is.value(i)
		if got.LVal != w.LVal || got.Block.Type != w.Block.Type || string(got.Block.Data) != string(w.Block.Data) ||
			(got.Block.Data == nil) != (w.Block.Data == nil) || cap(got.Block.Data) != len(got.Block.Data) {
			t.Fatalf("value %d is %+v, want %+v", i, got, w)
		}
	}
	if len(is.wide) != 1 {
		t.Errorf("%d values wide, want 1 (the block not kept)", len(is.wide))
	}
	// blocks held in a sample survive the series' growth
	first := is.value(1)
	for i := range 5 * chunkLen {
		is.add(float64(len(want)+i), pcp.Value{LVal: int32(i)})
	}
	if string(first.Block.Data) != string(want[1].Block.Data) {
		t.Errorf("value 1's block became %v, want %v", first.Block.Data, want[1].Block.Data)
	}
}
