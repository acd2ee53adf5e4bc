package archive

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

const qaBad = "/var/lib/pcp/testsuite/badarchives"

// TestReaderSelect reads QA archives whole with and without Select: each
// record gives the chosen metrics' sets as the full reading does, and
// Mark tells the <mark> records (no sets on disk) from records without
// the chosen metrics; damage stops both readings at the same record.
func TestReaderSelect(t *testing.T) {
	if _, err := os.Stat(qaDir + "/20041125.0"); err != nil {
		t.Skip("PCP's QA archives are not installed")
	}
	names := []string{"20041125", "20180127.08.40", "dm-io", "20180102", "bug-1044", "naslog"}
	// the QA suite's damaged archives: records cut short, lengths that
	// do not match, bad value sets
	bad, _ := filepath.Glob(qaBad + "/bad*.0")
	for _, b := range bad {
		names = append(names, "../badarchives/"+strings.TrimSuffix(filepath.Base(b), ".0"))
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			a, err := Open(qaDir+"/"+name, Options{})
			if err != nil {
				t.Skip(err)
			}
			// every third metric of the descriptors, and none
			var chosen = map[pcp.PMID]bool{}
			i := 0
			a.Meta.EachDesc(func(d pcp.Desc) {
				if i%3 == 0 {
					chosen[d.PMID] = true
				}
				i++
			})
			for _, keep := range []func(pcp.PMID) bool{
				func(p pcp.PMID) bool { return chosen[p] },
				func(pcp.PMID) bool { return false },
			} {
				all, sel := a.NewReader(), a.NewReader()
				sel.Select(keep)
				var ra, rs pcp.Result
				n := 0
				for {
					errA, errS := all.Fetch(&ra), sel.Fetch(&rs)
					if (errA == nil) != (errS == nil) || (errA != nil && !errors.Is(errS, pcp.ErrEOL) && errors.Is(errA, pcp.ErrEOL)) {
						t.Fatalf("record %d: full reading %v, selecting %v", n, errA, errS)
					}
					if errA != nil {
						break
					}
					n++
					if ra.Timestamp != rs.Timestamp {
						t.Fatalf("record %d: timestamp %v, selecting %v", n, ra.Timestamp, rs.Timestamp)
					}
					if sel.Mark() != (len(ra.Sets) == 0) {
						t.Fatalf("record %d: Mark %v with %d sets", n, sel.Mark(), len(ra.Sets))
					}
					var want []pcp.ValueSet
					for _, s := range ra.Sets {
						if keep(s.PMID) {
							want = append(want, s)
						}
					}
					if len(want) != len(rs.Sets) {
						t.Fatalf("record %d: %d sets, want %d", n, len(rs.Sets), len(want))
					}
					for k := range want {
						if !sameSet(want[k], rs.Sets[k]) {
							t.Fatalf("record %d: set %d\n got %+v\nwant %+v", n, k, rs.Sets[k], want[k])
						}
					}
				}
				if n == 0 && !strings.Contains(name, "bad") {
					t.Error("no records read")
				}
			}
		})
	}
}

// sameSet compares value sets, an empty Values equal to a nil one (the
// readers reuse their storage differently), otherwise as
// reflect.DeepEqual does (a nil Data differs from an empty one). It
// compares field by field: reflect.DeepEqual was four tenths of
// TestReaderCachedRecords's time under -race. valueFieldsKnown keeps it
// honest should the types grow a field.
func sameSet(a, b pcp.ValueSet) bool {
	if !valueFieldsKnown() {
		if len(a.Values) == 0 && len(b.Values) == 0 {
			a.Values, b.Values = nil, nil
		}
		return reflect.DeepEqual(a, b)
	}
	if a.PMID != b.PMID || a.NumVal != b.NumVal || a.ValFmt != b.ValFmt || len(a.Values) != len(b.Values) {
		return false
	}
	for i := range a.Values {
		x, y := a.Values[i], b.Values[i]
		if x.Inst != y.Inst || x.LVal != y.LVal || x.Block.Type != y.Block.Type ||
			(x.Block.Data == nil) != (y.Block.Data == nil) || !bytes.Equal(x.Block.Data, y.Block.Data) {
			return false
		}
	}
	return true
}

// valueFieldsKnown reports whether pcp.ValueSet, pcp.Value and
// pcp.ValueBlock have just the fields sameSet compares.
var valueFieldsKnown = sync.OnceValue(func() bool {
	return reflect.TypeFor[pcp.ValueSet]().NumField() == 4 && reflect.TypeFor[pcp.Value]().NumField() == 3 &&
		reflect.TypeFor[pcp.ValueBlock]().NumField() == 2
})

// TestSameSetAsDeepEqual: sameSet agrees with reflect.DeepEqual (empty
// Values aside), on sets that differ in each field in turn.
func TestSameSetAsDeepEqual(t *testing.T) {
	if !valueFieldsKnown() {
		t.Fatal("pcp.ValueSet, pcp.Value or pcp.ValueBlock has a field sameSet does not compare")
	}
	base := pcp.ValueSet{PMID: 7, NumVal: 2, ValFmt: 1, Values: []pcp.Value{
		{Inst: 1, LVal: 3}, {Inst: 2, Block: pcp.ValueBlock{Type: 5, Data: []byte("ab")}}}}
	clone := func(f func(*pcp.ValueSet)) pcp.ValueSet {
		s := base
		s.Values = append([]pcp.Value(nil), base.Values...)
		s.Values[1].Block.Data = append([]byte(nil), base.Values[1].Block.Data...)
		f(&s)
		return s
	}
	for i, b := range []pcp.ValueSet{
		clone(func(*pcp.ValueSet) {}),
		clone(func(s *pcp.ValueSet) { s.PMID++ }),
		clone(func(s *pcp.ValueSet) { s.NumVal++ }),
		clone(func(s *pcp.ValueSet) { s.ValFmt++ }),
		clone(func(s *pcp.ValueSet) { s.Values = s.Values[:1] }),
		clone(func(s *pcp.ValueSet) { s.Values[0].Inst++ }),
		clone(func(s *pcp.ValueSet) { s.Values[0].LVal++ }),
		clone(func(s *pcp.ValueSet) { s.Values[1].Block.Type++ }),
		clone(func(s *pcp.ValueSet) { s.Values[1].Block.Data[1] = 'c' }),
		clone(func(s *pcp.ValueSet) { s.Values[0].Block.Data = []byte{} }),
	} {
		if got, want := sameSet(base, b), reflect.DeepEqual(base, b); got != want {
			t.Errorf("case %d: sameSet %v, reflect.DeepEqual %v", i, got, want)
		}
	}
	if !sameSet(pcp.ValueSet{Values: []pcp.Value{}}, pcp.ValueSet{}) {
		t.Error("empty Values differs from nil")
	}
}
