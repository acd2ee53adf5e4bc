package series

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/gopcp/gopcp/series/resp"

	"github.com/gopcp/gopcp/internal/testing/redistest"
	"github.com/gopcp/gopcp/internal/testing/seriestest"
)

// clusterDump is every key of every node of a cluster.
func clusterDump(t *testing.T, cl *redistest.Cluster) map[string]string {
	out := map[string]string{}
	for _, n := range cl.Nodes {
		c := client(t, n)
		for k, v := range seriestest.Dump(t, c) {
			out[k] = v
		}
	}
	return out
}

// TestClusterLoadMatchesPCP loads an archive into one Redis Cluster of
// three local redis-servers with PCP's pmseries and into another with
// ours, compares every key, and queries ours.
func TestClusterLoadMatchesPCP(t *testing.T) {
	redistest.Need(t)
	pcpCl, ourCl := redistest.StartCluster(t, 3), redistest.StartCluster(t, 3)
	conf := seriestest.WriteConf(t)
	path := filepath.Join(qaArchives, "omnibus_v3")
	seriestest.PCPLoad(t, pcpCl.Nodes[0].Port, conf, path)
	ctx := context.Background()
	c, err := Connect(ctx, ourCl.Addrs()[:1], resp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, ok := c.(*resp.Cluster); !ok {
		t.Fatalf("Connect to a cluster node made a %T", c)
	}
	st, err := Load(ctx, c, path, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pd, od := clusterDump(t, pcpCl), clusterDump(t, ourCl)
	same, dep := seriestest.CompareDumps(t, "cluster", pd, od)
	t.Logf("cluster: %d records, %d keys equal over %d nodes; departures: %d more set members, %d stale values",
		st.Records, same, len(ourCl.Nodes), dep.MoreMembers, dep.StaleValues)
	spread := 0
	for _, n := range ourCl.Nodes {
		if len(seriestest.Dump(t, client(t, n))) > 0 {
			spread++
		}
	}
	if spread < 2 {
		t.Errorf("keys on %d of %d nodes", spread, len(ourCl.Nodes))
	}
	res, err := NewStore(c).Query(ctx, `sample.colour[samples:2]`)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Series) != 1 || len(res.Values) != 6 {
		t.Errorf("query over the cluster: %d series, %d values; want 1 and 6", len(res.Series), len(res.Values))
	}
}
