package archive

import (
	"errors"
	"os"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// TestReaderCachedRecords places a reader at each record's time again
// and again (as pminfo -f does before each fetch), choosing other
// metrics each time: the third and later readings of a record come from
// the reader's cache, and must give what a full reading gives for the
// chosen metrics, in the record's order; results fetched before stay as
// they were (their blocks are their own, not the cache's).
func TestReaderCachedRecords(t *testing.T) {
	if _, err := os.Stat(qaDir + "/20041125.0"); err != nil {
		t.Skip("PCP's QA archives are not installed")
	}
	for _, name := range []string{"20041125", "20180127.08.40", "dm-io", "20180102", "naslog"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel() // each reads an archive of its own
			a, err := Open(qaDir+"/"+name, Options{})
			if err != nil {
				t.Skip(err)
			}
			defer a.Close()
			var ids []pcp.PMID
			a.Meta.EachDesc(func(d pcp.Desc) { ids = append(ids, d.PMID) })
			every := func(k int) []pcp.PMID {
				var out []pcp.PMID
				for i := len(ids) - 1; i >= 0; i -= k {
					out = append(out, ids[i])
				}
				return out
			}
			lists := [][]pcp.PMID{every(3), every(20), ids[:1], {ids[len(ids)/2], ids[len(ids)/2]}, {pcp.PMID(0x3fffffff)}, every(1)}

			all := a.NewReader()
			var full pcp.Result
			sel := a.NewReader()
			type held struct {
				full *pcp.Result
				got  pcp.Result
				li   int
			}
			var kept []held
			n := 0
			for ; n < 40; n++ {
				if err := all.Fetch(&full); err != nil {
					if !errors.Is(err, pcp.ErrEOL) {
						t.Fatal(err)
					}
					break
				}
				fullCopy := cloneFull(&full)
				for round := 0; round < 3; round++ {
					for li, list := range lists {
						var got pcp.Result
						sel.SelectPMIDs(list)
						sel.SetMode(Forward, full.Timestamp)
						if err := sel.Fetch(&got); err != nil {
							t.Fatalf("record %d list %d round %d: %v", n, li, round, err)
						}
						if got.Timestamp != full.Timestamp {
							// several records at one time: the first is read
							continue
						}
						checkChosen(t, n, li, &full, &got, list, sel.Mark())
						kept = append(kept, held{fullCopy, got, li})
					}
				}
			}
			// the results fetched before, from records the cache has
			// since let go, are intact
			for _, h := range kept {
				checkChosen(t, n, h.li, h.full, &h.got, lists[h.li], len(h.full.Sets) == 0)
			}
			if n == 0 {
				t.Fatal("no records")
			}
		})
	}
}

// checkChosen compares a reading of the sets of list with the full
// reading of the same record.
func checkChosen(t *testing.T, n, li int, full, got *pcp.Result, list []pcp.PMID, mark bool) {
	t.Helper()
	in := map[pcp.PMID]bool{}
	for _, id := range list {
		in[id] = true
	}
	var want []pcp.ValueSet
	for _, s := range full.Sets {
		if in[s.PMID] {
			want = append(want, s)
		}
	}
	if mark != (len(full.Sets) == 0) {
		t.Fatalf("record %d list %d: Mark %v with %d sets", n, li, mark, len(full.Sets))
	}
	if len(want) != len(got.Sets) {
		t.Fatalf("record %d list %d: %d sets, want %d", n, li, len(got.Sets), len(want))
	}
	for k := range want {
		if !sameSet(want[k], got.Sets[k]) {
			t.Fatalf("record %d list %d: set %d\n got %+v\nwant %+v", n, li, k, got.Sets[k], want[k])
		}
	}
}

// cloneFull is a deep copy of a result.
func cloneFull(r *pcp.Result) *pcp.Result {
	out := &pcp.Result{Timestamp: r.Timestamp}
	for _, s := range r.Sets {
		s.Values = append([]pcp.Value(nil), s.Values...)
		for j := range s.Values {
			s.Values[j].Block.Data = append([]byte(nil), s.Values[j].Block.Data...)
		}
		out.Sets = append(out.Sets, s)
	}
	return out
}
