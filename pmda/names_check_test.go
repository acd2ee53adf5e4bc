package pmda

import (
	"errors"
	"testing"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmns"
)

// TestCheckNamesAsTree checks that New refuses a table's names exactly
// when building their tree would fail, with the same code: the tree is
// built only when a name is first asked.
func TestCheckNamesAsTree(t *testing.T) {
	tables := [][]string{
		{"a.b", "a.c", "d"},
		{"a.b", "a.b"},               // the same metric twice: one PMID
		{"a.b", "a.b.c"},             // below a leaf
		{"a.b.c", "a.b"},             // a leaf where there is a subtree
		{"a.b", "a.b-c", "a.b.c"},    // '-' sorts before '.'
		{"a.b", "a.bc", "a.b0", "x"}, // prefixes, not below
		{"a..b"},
		{".a"},
		{"a."},
		{"", "a"},
		{"z.y", "a.b", "m"},
	}
	for _, names := range tables {
		ms := make([]Metric, len(names))
		for i, n := range names {
			ms[i] = Metric{Name: n, Desc: pcp.Desc{PMID: pcp.NewPMID(1, 0, uint32(i))}}
		}
		if len(names) == 2 && names[0] == names[1] {
			ms[1].Desc.PMID = ms[0].Desc.PMID
		}
		var want error
		tree := pmns.New()
		for _, m := range ms {
			if m.Name == "" {
				continue
			}
			if want = tree.Add(m.Name, m.Desc.PMID); want != nil {
				break
			}
		}
		got := checkNames(ms)
		if (got == nil) != (want == nil) || want != nil && pcp.CodeOf(got, 0) != pcp.CodeOf(want, 0) {
			t.Errorf("%q: checkNames %v, pmns.Tree.Add %v", names, got, want)
		}
	}
	// one name, two PMIDs
	ms := []Metric{{Name: "a", Desc: pcp.Desc{PMID: pcp.NewPMID(1, 0, 1)}}, {Name: "a", Desc: pcp.Desc{PMID: pcp.NewPMID(1, 0, 2)}}}
	if err := checkNames(ms); !errors.Is(err, pcp.ErrPMID) {
		t.Errorf("one name, two PMIDs: %v, want PM_ERR_PMID", err)
	}
}
