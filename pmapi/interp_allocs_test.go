package pmapi

import (
	"context"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/pcp"
)

// TestInterpFetchAllocs: a fetch into a used Result of counters
// interpolated between two records allocates nothing, whatever the
// type (the computed values of 64-bit and floating types are blocks,
// from the Result's arena), and gives the same values as a fetch into a
// new Result. A step of zero keeps every fetch at one time, between two
// records already read, so only the fetch itself is counted.
func TestInterpFetchAllocs(t *testing.T) {
	ctx := context.Background()
	src, err := NewContext(ctx, KindArchive, clitest.QAArchive(t, "omnibus_v3"))
	if err != nil {
		t.Fatal(err)
	}
	c := src.(*ArchiveContext)
	defer c.Close()
	var pmids []pcp.PMID
	for _, name := range []string{"sample.long.bin_ctr", "sample.ulong.bin_ctr", "sample.float.bin_ctr",
		"sample.longlong.bin_ctr", "sample.ulonglong.bin_ctr", "sample.double.bin_ctr"} {
		id, err := c.LookupName(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		pmids = append(pmids, id)
	}
	// a third of a second in: between the first records
	if err := c.SetMode(ModeInterp, addNsec(c.Start(), 333_333_333), 0); err != nil {
		t.Fatal(err)
	}
	var fresh, used pcp.Result
	for range 3 {
		if _, err := c.Fetch(ctx, pmids, &used); err != nil {
			t.Fatal(err)
		}
	}
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := c.Fetch(ctx, pmids, &used); err != nil {
			t.Fatal(err)
		}
	})
	if _, err := c.Fetch(ctx, pmids, &fresh); err != nil {
		t.Fatal(err)
	}
	blocks := 0
	for i := range fresh.Sets {
		f, u := fresh.Sets[i], used.Sets[i]
		if f.NumVal <= 0 || f.NumVal != u.NumVal || f.ValFmt != u.ValFmt {
			t.Fatalf("%v: fresh %d values (format %d), used %d (%d)", f.PMID, f.NumVal, f.ValFmt, u.NumVal, u.ValFmt)
		}
		for j := range f.Values {
			if f.ValFmt != pcp.ValInSitu {
				blocks++
			}
			if f.Values[j].Inst != u.Values[j].Inst || f.Values[j].LVal != u.Values[j].LVal ||
				string(f.Values[j].Block.Data) != string(u.Values[j].Block.Data) {
				t.Errorf("%v instance %d: fresh %+v, used %+v", f.PMID, f.Values[j].Inst, f.Values[j], u.Values[j])
			}
		}
	}
	if blocks == 0 {
		t.Fatal("no value in a block: the test covers nothing")
	}
	if allocs != 0 {
		t.Errorf("%v allocations a fetch, want 0", allocs)
	}
}

// TestKeepBlock: value blocks kept for the histories are copies, each
// with no room after it (an append to one cannot reach the next), nil
// when empty, unchanged by the blocks kept after them, and a run of
// small blocks shares a few chunks instead of an allocation each.
func TestKeepBlock(t *testing.T) {
	ip := &interpolator{}
	var kept, want [][]byte
	for i, n := range []int{8, 0, 12, 1, keptChunk, 3 * keptChunk, 8, 4, keptChunk - 5, 16} {
		b := make([]byte, n)
		for j := range b {
			b[j] = byte(i*31 + j)
		}
		k := ip.keepBlock(b)
		if n == 0 {
			if k != nil {
				t.Fatalf("block %d: an empty block kept as %v, want nil", i, k)
			}
			continue
		}
		if len(k) != n || cap(k) != n {
			t.Fatalf("block %d: kept with length %d capacity %d, want %d", i, len(k), cap(k), n)
		}
		clear(b) // the reader's storage, reused
		kept = append(kept, k)
		w := make([]byte, n)
		for j := range w {
			w[j] = byte(i*31 + j)
		}
		want = append(want, w)
	}
	for i := range kept {
		if string(kept[i]) != string(want[i]) {
			t.Fatalf("kept block %d changed", i)
		}
	}
	small := make([]byte, 8)
	allocs := testing.AllocsPerRun(1, func() {
		for range 1000 {
			ip.keepBlock(small)
		}
	})
	if allocs > 1+1000*8/keptChunk {
		t.Errorf("%v allocations for 1,000 blocks of 8 bytes", allocs)
	}
}
