package pmapi

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// TestArchiveContextLabelsAsLibpcp: an archive's context labels are
// libpcp's, pmGetContextLabels through PCP's own library: the recorded
// set where the archive has one, and where it has none (archives written
// before labels) the {"hostname":...} set libpcp supplies, flags and
// offsets included. Before, ours gave no set for those, and each caller
// (pminfo, series, webapi) made its own.
func TestArchiveContextLabelsAsLibpcp(t *testing.T) {
	const dir = "/var/lib/pcp/testsuite/archives"
	names := []string{"20041125", "20071023-08-06-36", "20180102", "bozo-20170904", "omnibus_v3", "sample-labels"}
	// one harness for every archive, each opened in turn
	var reqs []req
	for _, name := range names {
		reqs = append(reqs, req{"op": "open", "spec": "archive:" + filepath.Join(dir, name)},
			req{"op": "labels", "level": "context", "ident": uint32(pcp.PMIDNull)})
	}
	answers := askLibpcp(t, nil, "archive:"+filepath.Join(dir, names[0]), "", reqs)
	for i, name := range names {
		path := filepath.Join(dir, name)
		if opened := answers[2*i]; opened.Sts < 0 {
			t.Fatalf("libpcp harness: %s: pmNewContext %d", name, opened.Sts)
		}
		want := answers[2*i+1]
		ctx := testContext(t)
		c, err := NewArchiveContext(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		sets, err := c.ContextLabels(ctx)
		c.Close()
		if codeOf(err) != min(want.Sts, 0) || (want.Sts >= 0 && len(sets) != int(want.Sts)) {
			t.Errorf("%s: %d sets, %v; libpcp %d", name, len(sets), err, want.Sts)
			continue
		}
		for j, s := range sets {
			ws := want.Sets[j]
			var labels [][5]int32
			for _, l := range s.Labels {
				labels = append(labels, [5]int32{int32(l.Name), int32(l.NameLen), int32(l.Flags), int32(l.Value), int32(l.ValueLen)})
			}
			if s.Inst != ws.Inst || s.NLabels != ws.NLabels || s.JSON != ws.JSON || !slices.Equal(labels, ws.Labels) {
				t.Errorf("%s: set %d = %+v; libpcp %+v", name, j, s, ws)
			}
		}
		t.Logf("%s: %d sets as libpcp's: %+v", name, len(sets), want.Sets)
	}
}
