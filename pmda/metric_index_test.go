package pmda

import (
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// TestMetricIndex: the dense and the sparse index find the same metrics,
// refuse a PMID twice, and find nothing for a PMID of another domain, or
// with the top bit set, or between and beyond the table's.
func TestMetricIndex(t *testing.T) {
	const dom = 60
	metrics := func(ids ...[2]uint32) []Metric {
		ms := make([]Metric, len(ids))
		for i, id := range ids {
			ms[i].Desc.PMID = pcp.NewPMID(dom, id[0], id[1])
		}
		return ms
	}
	for _, tc := range []struct {
		name   string
		ms     []Metric
		sparse bool
		dup    pcp.PMID
	}{
		{name: "dense", ms: metrics([2]uint32{0, 0}, [2]uint32{0, 2}, [2]uint32{3, 1}, [2]uint32{1, 5})},
		{name: "sparse", ms: metrics([2]uint32{0, 1}, [2]uint32{4000, 1000}), sparse: true},
		{name: "empty", ms: nil},
		{name: "dense twice", ms: metrics([2]uint32{2, 1}, [2]uint32{0, 0}, [2]uint32{2, 1}), dup: pcp.NewPMID(dom, 2, 1)},
		{name: "sparse twice", ms: metrics([2]uint32{4000, 1000}, [2]uint32{4000, 1000}), sparse: true, dup: pcp.NewPMID(dom, 4000, 1000)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var x metricIndex
			id, ok := x.build(dom, tc.ms)
			if tc.dup != 0 {
				if ok || id != tc.dup {
					t.Fatalf("build = %v, %v; want %v twice", id, ok, tc.dup)
				}
				return
			}
			if !ok {
				t.Fatalf("build: %v twice", id)
			}
			if (x.sparse != nil) != tc.sparse {
				t.Errorf("sparse %v, want %v", x.sparse != nil, tc.sparse)
			}
			for i := range tc.ms {
				id := tc.ms[i].Desc.PMID
				if got := x.get(id); got != &tc.ms[i] {
					t.Errorf("get(%v) = %p, want metric %d", id, got, i)
				}
				for _, other := range []pcp.PMID{
					pcp.NewPMID(dom+1, id.Cluster(), id.Item()),
					id | 1<<31,
					pcp.NewPMID(dom, id.Cluster(), id.Item()+1),
					pcp.NewPMID(dom, id.Cluster()+1, 0),
				} {
					if got := x.get(other); got != nil && got.Desc.PMID != other {
						t.Errorf("get(%v) = metric of %v", other, got.Desc.PMID)
					}
				}
			}
			if got := x.get(pcp.NewPMID(dom, 7, 7)); got != nil {
				t.Errorf("get of a PMID not in the table = %v", got.Desc.PMID)
			}
		})
	}
}
