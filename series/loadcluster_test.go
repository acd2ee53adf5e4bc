package series

import (
	"context"
	"maps"
	"path/filepath"
	"testing"

	"github.com/gopcp/gopcp/series/resp"

	"github.com/gopcp/gopcp/internal/testing/redistest"
	"github.com/gopcp/gopcp/internal/testing/seriestest"
)

// TestClusterLoadRedirected: the loader writes to a cluster's nodes
// itself and a load holds what a load into one server holds, key for key;
// a node that answers MOVED (here every command sent to one node, as if
// slots had moved) makes the load go on through the resp client, to the same
// keys.
func TestClusterLoadRedirected(t *testing.T) {
	redistest.Need(t)
	cl, one := redistest.StartCluster(t, 3), redistest.Start(t)
	ctx := context.Background()
	c, err := Connect(ctx, cl.Addrs()[:1], resp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, ok := c.(*resp.Cluster); !ok {
		t.Fatalf("Connect to a cluster node made a %T", c)
	}
	path := filepath.Join(qaArchives, "omnibus_v3")
	if _, err := Load(ctx, client(t, one), path, LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	want := seriestest.Dump(t, client(t, one))
	for _, misroute := range []bool{false, true} {
		for _, n := range cl.Nodes {
			if _, err := client(t, n).Do(ctx, "FLUSHALL"); err != nil {
				t.Fatal(err)
			}
		}
		redirected := 0
		opt := LoadOptions{misroute: misroute, redirected: func() { redirected++ }}
		if _, err := Load(ctx, c, path, opt); err != nil {
			t.Fatal(err)
		}
		if wantRedirects := map[bool]int{false: 0, true: 1}[misroute]; redirected != wantRedirects {
			t.Errorf("misrouted %v: load redirected %d times, want %d", misroute, redirected, wantRedirects)
		}
		same, _ := seriestest.CompareDumps(t, "cluster", maps.Clone(want), clusterDump(t, cl))
		t.Logf("misrouted %v: %d keys equal", misroute, same)
	}
}
