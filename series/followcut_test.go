package series

import (
	"context"
	bo "encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/redistest"
	"github.com/gopcp/gopcp/internal/testing/seriestest"
)

// metaRecords is where each record of a metadata file starts and ends
// (the label first), read by its length words.
func metaRecords(t *testing.T, path string) [][2]int64 {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out [][2]int64
	for at := int64(0); at+4 <= int64(len(b)); {
		n := int64(bo.BigEndian.Uint32(b[at:]))
		if n < 12 || at+n > int64(len(b)) {
			t.Fatalf("%s: no record at %d", path, at)
		}
		out = append(out, [2]int64{at, at + n})
		at += n
	}
	return out
}

// TestFollowerCutMetadata follows an archive while its metadata is seen
// cut at every record boundary and inside every record (after the length
// word, after the header, half way, a byte short), the data volume whole
// and so ahead of it: no poll fails, no record is loaded twice or before
// its metadata, and at the end Redis holds what one load of the finished
// archive writes, key for key, and what PCP's pmseries --load of it
// writes but for the loader's departures (docs/series.md).
func TestFollowerCutMetadata(t *testing.T) {
	ctx := context.Background()
	followed, loaded, pcps := redistest.Start(t), redistest.Start(t), redistest.Start(t)
	g := newGrowingArchive(t, t.TempDir())
	seen := t.TempDir()
	f := NewFollower(filepath.Join(seen, "grow"), filepath.Join(seen, "grow"), LoadOptions{BatchCommands: 16}, false)
	const n = 20
	records, polls, cuts := 0, 0, 0
	poll := func() {
		t.Helper()
		st, err := f.Poll(ctx, client(t, followed))
		if err != nil {
			t.Fatalf("poll %d: %v", polls, err)
		}
		polls++
		records += st.Records
		if st.Refused != 0 {
			t.Fatalf("poll %d: %d stream entries already in Redis: a record was loaded twice", polls, st.Refused)
		}
	}
	g.step(0)
	mirror(t, g.base, seen, -1, -1)
	poll()
	for k := 1; k < n; k++ {
		metaBefore := fileSize(t, g.base+".meta")
		g.step(k)
		for _, rec := range metaRecords(t, g.base+".meta") {
			if rec[0] < metaBefore {
				continue
			}
			for _, cut := range []int64{rec[0] + 4, rec[0] + 8, (rec[0] + rec[1]) / 2, rec[1] - 1, rec[1]} {
				mirror(t, g.base, seen, cut, -1)
				poll()
				if cut < rec[1] {
					cuts++
					if f.cutPolls == 0 {
						t.Fatalf("metadata cut at %d inside the record at %d..%d: the follower did not see it", cut, rec[0], rec[1])
					}
				}
			}
		}
	}
	g.must(g.w.Close())
	mirror(t, g.base, seen, -1, -1)
	poll()
	if records != n {
		t.Errorf("followed %d records in %d polls, the archive has %d", records, polls, n)
	}
	want, got := sameAsOneLoad(t, ctx, loaded, followed, filepath.Join(seen, "grow"))
	seriestest.PCPLoad(t, pcps.Port, seriestest.WriteConf(t), filepath.Join(seen, "grow"))
	same, dep := seriestest.CompareDumps(t, "grow", seriestest.Dump(t, client(t, pcps)), got)
	if f.decodes >= polls {
		t.Errorf("the metadata was decoded at each of %d polls: polls that found no record completed should reuse it", polls)
	}
	t.Logf("%d records followed in %d polls (%d with the metadata cut inside a record, %d decoding it): %d keys equal to one load's, "+
		"%d to PCP's pmseries --load's (departures: %d more set members, %d stale values PCP repeats)",
		records, polls, cuts, f.decodes, len(want), same, dep.MoreMembers, dep.StaleValues)
}

// FuzzMetaTail: scanning a metadata file in two parts (the second
// appended after the first scan) finds where the complete records end
// as one scan of the whole does, never past the file's end.
func FuzzMetaTail(f *testing.F) {
	f.Add([]byte{0, 0, 0, 12, 0, 0, 0, 1, 0, 0, 0, 12, 0, 0, 0, 16}, 6)
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 1, 2, 3}, 2)
	f.Fuzz(func(t *testing.T, b []byte, split int) {
		if len(b) > 1<<16 {
			return
		}
		split = min(max(split, 0), len(b))
		dir := t.TempDir()
		whole, parts := filepath.Join(dir, "whole"), filepath.Join(dir, "parts")
		if err := os.WriteFile(whole, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(parts, b[:split], 0o644); err != nil {
			t.Fatal(err)
		}
		p := &metaTail{path: parts}
		if c, size, err := p.scan(); err != nil || c > size {
			t.Fatalf("first part: %d of %d, %v", c, size, err)
		}
		if err := os.WriteFile(parts, b, 0o644); err != nil {
			t.Fatal(err)
		}
		got, size, err := p.scan()
		want, _, err2 := (&metaTail{path: whole}).scan()
		if err != nil || err2 != nil || got != want || got > size {
			t.Fatalf("in parts %d, whole %d (size %d): %v %v", got, want, size, err, err2)
		}
	})
}
