package series

import (
	"context"
	"maps"
	"path/filepath"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/gopcp/gopcp/internal/testing/redistest"
)

// TestKeySlotMatchesRedis: the loader's slot of a key is Redis's own
// (CLUSTER KEYSLOT), hash tags included.
func TestKeySlotMatchesRedis(t *testing.T) {
	redistest.Need(t)
	cl := redistest.StartCluster(t, 3)
	c := client(t, cl.Nodes[0])
	for _, k := range []string{"", "foo", "123456789", "pcp:values:series:5480cfb79a259e31e8713c60503cbf5f1e0bb269",
		"pcp:map:label.09be7733f1b5ed42572d26928a5e56ccf91ea8b8.value", "{user1000}.following", "foo{}{bar}",
		"foo{{bar}}zap", "foo{bar}{zap}", "{", "}{", "\xff\x00{\x80}"} {
		want, err := c.ClusterKeySlot(context.Background(), k).Result()
		if err != nil {
			t.Fatal(err)
		}
		if got := keySlot(k); int64(got) != want {
			t.Errorf("slot of %q: %d, Redis says %d", k, got, want)
		}
	}
}

// TestClusterLoadRedirected: the loader writes to a cluster's nodes
// itself and a load holds what a load into one server holds, key for key;
// a node that answers MOVED (here every command sent to one node, as if
// slots had moved) makes the load go on through go-redis, to the same
// keys.
func TestClusterLoadRedirected(t *testing.T) {
	redistest.Need(t)
	cl, one := redistest.StartCluster(t, 3), redistest.Start(t)
	ctx := context.Background()
	c, err := Connect(ctx, cl.Addrs()[:1])
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, ok := c.(*redis.ClusterClient); !ok {
		t.Fatalf("Connect to a cluster node made a %T", c)
	}
	path := filepath.Join(qaArchives, "omnibus_v3")
	if _, err := Load(ctx, client(t, one), path, LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	want := dump(t, client(t, one))
	for _, misroute := range []bool{false, true} {
		for _, n := range cl.Nodes {
			if err := client(t, n).FlushAll(ctx).Err(); err != nil {
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
		same, _ := compareDumps(t, "cluster", maps.Clone(want), clusterDump(t, cl))
		t.Logf("misrouted %v: %d keys equal", misroute, same)
	}
}
