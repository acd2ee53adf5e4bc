package series

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/redistest"
	"github.com/gopcp/gopcp/internal/testing/seriestest"
)

// TestLoadAllMatchesPCP loads three archives of one host and two of other
// hosts into one Redis: PCP's pmseries one after another in time order,
// ours with LoadAll given them shuffled, hosts side by side. Every key is
// equal but for the counted departures: nothing of one archive is
// overwritten or lost by another.
func TestLoadAllMatchesPCP(t *testing.T) {
	ordered := []string{"multi/20150508.11.44", "multi/20150508.11.46", "multi/20150508.11.50", "20041125", "omnibus_v3"}
	shuffled := []string{"omnibus_v3", "multi/20150508.11.50", "20041125", "multi/20150508.11.44", "multi/20150508.11.46"}
	conf := seriestest.WriteConf(t)
	pcpSrv, ourSrv := redistest.Start(t), redistest.Start(t)
	for _, a := range ordered {
		seriestest.PCPLoad(t, pcpSrv.Port, conf, filepath.Join(qaArchives, a))
	}
	var paths []string
	for _, a := range shuffled {
		paths = append(paths, filepath.Join(qaArchives, a))
	}
	stats, err := LoadAll(context.Background(), client(t, ourSrv), paths, LoadOptions{}, 3)
	if err != nil {
		t.Fatal(err)
	}
	values := 0
	for i, s := range stats {
		if s.Refused != 0 {
			t.Errorf("%s: %d values refused", shuffled[i], s.Refused)
		}
		values += s.Values
	}
	same, dep := seriestest.CompareDumps(t, "five archives", seriestest.Dump(t, client(t, pcpSrv)), seriestest.Dump(t, client(t, ourSrv)))
	t.Logf("%d archives of 3 hosts, %d values: %d keys equal; departures: %d more set members, %d stale values, %d phantoms",
		len(paths), values, same, dep.MoreMembers, dep.StaleValues, dep.Phantoms)
}
