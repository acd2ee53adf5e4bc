package pdu

import (
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// TestDecodeValuesOneStore decodes archive-like records into one Result:
// three metrics whose sets change places from record to record while
// their instances grow by one a record, as a process metric's do. The
// sets' values share one store of the Result's, grown with room to
// spare, so the sequence allocates a few times, not once per set that
// outgrows the set decoded at its place before; each set's Values ends
// where its values do, so appending to one cannot reach the next.
func TestDecodeValuesOneStore(t *testing.T) {
	record := func(k int) []byte {
		sets := make([]pcp.ValueSet, 3)
		for j := range sets {
			n := 100 + k + j
			vs := pcp.ValueSet{PMID: pcp.PMID(10 + (j+k)%3), NumVal: int32(n), ValFmt: pcp.ValInSitu}
			for i := range n {
				vs.Values = append(vs.Values, pcp.Value{Inst: int32(i), LVal: int32(k*1000 + i)})
			}
			sets[j] = vs
		}
		return AppendResult(nil, 0, &pcp.Result{Sets: sets})
	}
	const records = 64
	pdus := make([][]byte, records)
	for k := range pdus {
		pdus[k] = record(k)
	}
	var r pcp.Result
	allocs := testing.AllocsPerRun(1, func() {
		r = pcp.Result{}
		for _, b := range pdus {
			if err := DecodeResultInto(&r, b); err != nil {
				t.Fatal(err)
			}
		}
	})
	// the sets' slice once, the store about log(1.25) of its growth
	if allocs > 6 {
		t.Errorf("%v allocations for %d records", allocs, records)
	}
	for j := range r.Sets {
		vs := r.Sets[j].Values
		if cap(vs) != len(vs) {
			t.Errorf("set %d: room for %d more values after its own", j, cap(vs)-len(vs))
		}
		if want := int32((records-1)*1000 + len(vs) - 1); vs[len(vs)-1].LVal != want {
			t.Errorf("set %d: last value %d, want %d", j, vs[len(vs)-1].LVal, want)
		}
	}
	first := r.Sets[1].Values[0].LVal
	_ = append(r.Sets[0].Values, pcp.Value{LVal: -1})
	if r.Sets[1].Values[0].LVal != first {
		t.Error("appending to one set's values overwrote the next set's")
	}
}
