package derive

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmns"
)

// TestNamespace checks the derived side of the namespace: traversal
// (unusable definitions left out once bound), children with leaf status,
// names of PMIDs, and masking of a global by a per-context definition.
func TestNamespace(t *testing.T) {
	ctx := context.Background()
	reg := NewRegistry()
	for _, d := range [][2]string{
		{"my.a.one", "m.val"}, {"my.a.two", "m.val * 2"}, {"my.b", "m.zero"}, {"my.bad", "no.such + 1"},
		{"other", "m.val"},
	} {
		if err := reg.Register(d[0], d[1]); err != nil {
			t.Fatal(err)
		}
	}
	c := NewLayer(newFake(), reg)
	names, err := c.Traverse(ctx, "my")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"my.a.one", "my.a.two", "my.b"}; !slices.Equal(names, want) {
		t.Errorf("Traverse(my) = %v, want %v", names, want)
	}
	if all, _ := c.Traverse(ctx, ""); !slices.Contains(all, "event.flags") || !slices.Contains(all, "other") {
		t.Errorf("Traverse of the root = %v", all)
	}
	kids, err := c.ChildrenStatus(ctx, "my")
	if err != nil {
		t.Fatal(err)
	}
	if want := []pmns.Child{{Name: "a"}, {Name: "b", Leaf: true}}; !slices.Equal(kids, want) {
		t.Errorf("ChildrenStatus(my) = %v, want %v", kids, want)
	}
	if kids, err := c.ChildrenStatus(ctx, "my.b"); err != nil || len(kids) != 0 {
		t.Errorf("ChildrenStatus of a leaf = %v, %v", kids, err)
	}
	if _, err := c.Traverse(ctx, "nothing"); !errors.Is(err, pcp.ErrName) {
		t.Errorf("Traverse(nothing): %v", err)
	}
	pmids, err := c.LookupNames(ctx, []string{"my.b", "m.val", "nope"})
	if err != nil {
		t.Fatal(err)
	}
	if pmids[0] != pcp.NewPMID(DynamicDomain, 0, 5) || pmids[1] != pcp.NewPMID(1, 0, 3) || pmids[2] != pcp.PMIDNull {
		t.Errorf("LookupNames = %v", pmids)
	}
	if name, err := c.NameID(ctx, pmids[0]); err != nil || name != "my.b" {
		t.Errorf("NameID(%s) = %q, %v", pmids[0], name, err)
	}
	if err := c.AddDerived(ctx, "my.b", "m.val + 1"); err != nil {
		t.Fatal(err)
	}
	pmids, _ = c.LookupNames(ctx, []string{"my.b"})
	if !pmids[0].Flag() || pmids[0].Domain() != DynamicDomain {
		t.Errorf("my.b after AddDerived is %s, want the per-context PMID", pmids[0])
	}
	if res := fetchAll(t, c, []string{"my.b"}); res[0].vals[-1] != 6 {
		t.Errorf("masked my.b = %v, want the per-context value 6", res[0].vals)
	}
}
