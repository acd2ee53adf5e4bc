package cgroup

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// activeNames lists the active instances of a domain, sorted.
func activeNames(t *testing.T, s *Source, serial uint32) []string {
	t.Helper()
	insts, err := s.Instances(pcp.NewInDom(Domain, serial))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, in := range insts {
		names = append(names, in.Name)
	}
	slices.Sort(names)
	return names
}

// TestWalkKeptTree: the walk keeps the strings of the cgroups it has seen
// between refreshes; cgroups that go are forgotten, new ones (below kept
// ones too) are found with their names, and what is kept stays bounded
// by what is there.
func TestWalkKeptTree(t *testing.T) {
	root := v2Root(t, []string{"a/b", "c"})
	base := filepath.Join(root, "sys/fs/cgroup")
	s := New(Options{Root: root})
	s.Refresh([]pcp.PMID{cpuUsage})
	if got, want := activeNames(t, s, InDomCgroup2), []string{"/", "/a", "/a/b", "/c"}; !slices.Equal(got, want) {
		t.Fatalf("cgroups %q, want %q", got, want)
	}
	if err := os.RemoveAll(filepath.Join(base, "a/b")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(base, "a/d/e"), 0o755); err != nil {
		t.Fatal(err)
	}
	s.Refresh([]pcp.PMID{cpuUsage})
	if got, want := activeNames(t, s, InDomCgroup2), []string{"/", "/a", "/a/d", "/a/d/e", "/c"}; !slices.Equal(got, want) {
		t.Fatalf("after a/b went and a/d/e came: cgroups %q, want %q", got, want)
	}
	if s.walkNodes != 4 {
		t.Errorf("%d cgroups kept, want 4 (a, a/d, a/d/e, c)", s.walkNodes)
	}
	// A whole subtree going takes all it held.
	if err := os.MkdirAll(filepath.Join(base, "f/g/h"), 0o755); err != nil {
		t.Fatal(err)
	}
	s.Refresh([]pcp.PMID{cpuUsage})
	if s.walkNodes != 7 {
		t.Errorf("%d cgroups kept with f/g/h, want 7", s.walkNodes)
	}
	if err := os.RemoveAll(filepath.Join(base, "f")); err != nil {
		t.Fatal(err)
	}
	s.Refresh([]pcp.PMID{cpuUsage})
	if s.walkNodes != 4 {
		t.Errorf("%d cgroups kept after f/g/h went, want 4", s.walkNodes)
	}
	for i := range 100 {
		d := filepath.Join(base, "a", fmt.Sprintf("x%d", i))
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		s.Refresh([]pcp.PMID{cpuUsage})
		if err := os.Remove(d); err != nil {
			t.Fatal(err)
		}
		s.Refresh([]pcp.PMID{cpuUsage})
		if s.walkNodes != 4 {
			t.Fatalf("after %d cgroups came and went %d are kept, want 4", i+1, s.walkNodes)
		}
	}
}
