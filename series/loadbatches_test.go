package series

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/redistest"
	"github.com/gopcp/gopcp/internal/testing/seriestest"
)

// TestLoadSmallBatchesAgree loads an archive in batches of 300 commands
// (some 250 batches, whose encoded commands' blocks are taken again once
// Redis has answered them), through the loader's own pipelines and through
// resp.Client's, and compares both with a load in the default batches, key
// for key.
func TestLoadSmallBatchesAgree(t *testing.T) {
	path := filepath.Join(qaArchives, "20180102")
	ctx := context.Background()
	want := redistest.Start(t)
	if _, err := Load(ctx, client(t, want), path, LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	w := seriestest.Dump(t, client(t, want))
	for _, via := range []bool{false, true} {
		srv := redistest.Start(t)
		batches := 0
		opt := LoadOptions{BatchCommands: 300, viaClient: via, afterBatch: func(n int) { batches = n }}
		if _, err := Load(ctx, client(t, srv), path, opt); err != nil {
			t.Fatal(err)
		}
		got := seriestest.Dump(t, client(t, srv))
		if len(got) != len(w) {
			t.Errorf("via resp.Client %v: %d keys, want %d", via, len(got), len(w))
		}
		bad := 0
		for k, v := range w {
			if got[k] != v {
				if bad++; bad <= 3 {
					t.Errorf("via resp.Client %v: key %s differs:\n%s\nwant:\n%s", via, k, clip(got[k]), clip(v))
				}
			}
		}
		t.Logf("via resp.Client %v: %d batches, %d of %d keys differ", via, batches, bad, len(w))
	}
}
