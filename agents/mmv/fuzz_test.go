package mmv

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// FuzzAgentFile serves a good file beside one of any bytes: every request
// over every name answers without a panic, and the good file's metric is
// always served.
func FuzzAgentFile(f *testing.F) {
	for _, b := range seedFiles(f) {
		f.Add(b)
	}
	// One directory for every run: the good file, and the fuzzed one
	// rewritten each time under a new name (a new directory entry, so
	// that the agent rescans).
	dir := f.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "good"), writeGood(f), 0o644); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		l := newLocalIn(t, dir)
		path := filepath.Join(dir, "fuzz")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		defer os.Remove(path)
		names := l.names()
		ctx := context.Background()
		var ids []pcp.PMID
		for _, n := range names {
			id, err := l.a.LookupName(ctx, 0, n)
			if err != nil {
				t.Fatalf("%s listed but not found: %v", n, err)
			}
			ids = append(ids, id)
			if d, err := l.a.Desc(ctx, 0, id); err == nil && d.InDom != pcp.InDomNull {
				l.a.Instance(ctx, 0, d.InDom, pcp.InstNull, "")
				l.a.Label(ctx, 0, uint32(d.InDom), pcp.LabelInstances)
				l.a.Label(ctx, 0, uint32(d.InDom), pcp.LabelInDom)
			}
			l.a.Text(ctx, 0, uint32(id), 1|4)
			l.a.Text(ctx, 0, uint32(id), 2|4)
			l.a.Label(ctx, 0, uint32(id), pcp.LabelItem)
			l.a.Label(ctx, 0, uint32(id), pcp.LabelCluster)
		}
		if _, err := l.a.Fetch(ctx, 0, ids); err != nil {
			t.Fatal(err)
		}
		if !l.has("mmv.good.first") {
			t.Fatalf("the good file is no longer served: %v\nlog:\n%s", names, l.log)
		}
	})
}

// seedFiles are files of every version from package mmv.
func seedFiles(t testing.TB) [][]byte {
	var out [][]byte
	for _, tc := range []struct {
		long, labels bool
	}{{false, false}, {true, false}, {false, true}} {
		out = append(out, writeSeed(t, t.TempDir(), tc.long, tc.labels))
	}
	return out
}
