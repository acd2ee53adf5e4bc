package pmlogger

import (
	"reflect"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// TestTaskProfile checks the instance profile a task's fetches get: an
// instance domain is cut to the instances named only when every metric
// of it in the task names some, the lists are merged, and the domains
// come in order.
func TestTaskProfile(t *testing.T) {
	a, b, c := pcp.PMID(1), pcp.PMID(2), pcp.PMID(3)
	descs := map[pcp.PMID]pcp.Desc{a: {PMID: a, InDom: 9}, b: {PMID: b, InDom: 9}, c: {PMID: c, InDom: 4}}
	set := func(insts ...int32) map[int32]bool {
		m := map[int32]bool{}
		for _, in := range insts {
			m[in] = true
		}
		return m
	}
	for _, tc := range []struct {
		name  string
		pmids []pcp.PMID
		insts map[pcp.PMID]map[int32]bool
		want  []indomInsts
	}{
		{"no lists", []pcp.PMID{a, b, c}, nil, []indomInsts{}},
		{"one list", []pcp.PMID{a}, map[pcp.PMID]map[int32]bool{a: set(3, 1)}, []indomInsts{{9, []int32{1, 3}}}},
		{"lists merged", []pcp.PMID{a, b}, map[pcp.PMID]map[int32]bool{a: set(3), b: set(2, 3)}, []indomInsts{{9, []int32{2, 3}}}},
		{"a metric wants all", []pcp.PMID{a, b}, map[pcp.PMID]map[int32]bool{a: set(3)}, []indomInsts{}},
		{"domains in order", []pcp.PMID{a, c}, map[pcp.PMID]map[int32]bool{a: set(5), c: set(0)}, []indomInsts{{4, []int32{0}}, {9, []int32{5}}}},
		{"no descriptor", []pcp.PMID{7}, map[pcp.PMID]map[int32]bool{7: set(1)}, []indomInsts{}},
	} {
		got := taskProfile(&task{pmids: tc.pmids, descs: descs, insts: tc.insts})
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: profile %v, want %v", tc.name, got, tc.want)
		}
	}
}
