package pmapi

import (
	"context"
	"errors"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// A single archive's ChildrenStatus is answered from the archive's own
// name tree rather than from a namespace built of every name; it must be
// what that namespace answers, for every node of every QA archive, the
// root, leaves and names that are not there.
func TestArchiveChildrenFromMeta(t *testing.T) {
	metas, _ := filepath.Glob("/var/lib/pcp/testsuite/archives/*.meta")
	if len(metas) == 0 {
		t.Skip("no QA archives")
	}
	ctx := context.Background()
	nodes := 0
	for _, m := range metas {
		base := strings.TrimSuffix(m, ".meta")
		c, err := NewArchiveContext(ctx, base)
		if err != nil {
			continue // damaged on purpose: other tests look at those
		}
		tree := c.names() // the namespace the other path builds
		names, _ := c.Traverse(ctx, "")
		inner := map[string]bool{"": true}
		for _, n := range names {
			for i := range len(n) {
				if n[i] == '.' {
					inner[n[:i]] = true
				}
			}
		}
		ask := append(slices.Sorted(maps.Keys(inner)), "nosuch", "nosuch.child")
		if len(names) > 0 {
			ask = append(ask, names[0], names[len(names)-1]+".below")
		}
		for _, name := range ask {
			got, gotErr := c.ChildrenStatus(ctx, name)
			want, wantErr := tree.Children(name)
			if !slices.Equal(got, want) || !errors.Is(gotErr, pcp.ErrName) != !errors.Is(wantErr, pcp.ErrName) || (gotErr == nil) != (wantErr == nil) {
				t.Errorf("%s: ChildrenStatus(%q) = %v, %v; the namespace's %v, %v", filepath.Base(base), name, got, gotErr, want, wantErr)
			}
			nodes++
		}
		c.Close()
	}
	if nodes == 0 {
		t.Fatal("no archive opened")
	}
	t.Logf("%d archives, %d names asked", len(metas), nodes)
}
