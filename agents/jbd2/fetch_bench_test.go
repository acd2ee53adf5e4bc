package jbd2

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// BenchmarkFetch fetches every metric of the many-journals fixture (six
// journals, 133 values), the directory and info files read at each
// fetch as PCP's agent reads them.
func BenchmarkFetch(b *testing.B) {
	dir := filepath.Join("testdata", "many")
	a, err := New(Domain, Options{Dir: dir, CacheDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	var ids []pcp.PMID
	for _, m := range Metrics() {
		ids = append(ids, m.Desc.PMID)
	}
	ctx := context.Background()
	if _, err := a.Fetch(ctx, 0, ids); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := a.Fetch(ctx, 0, ids); err != nil {
			b.Fatal(err)
		}
	}
}
