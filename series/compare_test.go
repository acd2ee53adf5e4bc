package series

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/gopcp/gopcp/series/resp"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/redistest"
	"github.com/gopcp/gopcp/internal/testing/seriestest"
)

const qaArchives = seriestest.QAArchives

func client(t testing.TB, s *redistest.Server) *resp.Pool {
	c := resp.NewPool(s.Addr(), resp.Options{Timeout: time.Minute})
	t.Cleanup(func() { c.Close() })
	return c
}

// do runs one command, failing the test on any error.
func redisDo(t testing.TB, c resp.Client, args ...string) resp.Value {
	t.Helper()
	v, err := c.Do(context.Background(), args...)
	if err != nil {
		t.Fatalf("%q: %v", args, err)
	}
	return v
}

func clip(s string) string {
	if len(s) > 1500 {
		return s[:1500] + "..."
	}
	return s
}

// TestLoadMatchesPCP loads QA archives with PCP's pmseries into one
// private Redis and with ours into another, and compares every key.
func TestLoadMatchesPCP(t *testing.T) {
	archives := []string{"20041125", "omnibus_v3", "sample-labels", "daily_report", "mirage-3",
		"20071023-08-06-36", "20180102", "multi-xz/20150508.11.50", "20190628.04.03", "ok-mv-bar"}
	if os.Getenv("GOPCP_SERIES_FULL") == "1" {
		archives = append(archives, "pcp-zeroconf", "bozo-20170904")
	}
	if testing.Short() {
		archives = archives[:1]
	}
	conf := seriestest.WriteConf(t)
	for _, a := range archives {
		t.Run(a, func(t *testing.T) {
			path := filepath.Join(qaArchives, a)
			pcpSrv, ourSrv := redistest.Start(t), redistest.Start(t)
			seriestest.PCPLoad(t, pcpSrv.Port, conf, path)
			st, err := Load(context.Background(), client(t, ourSrv), path, LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			same, dep := seriestest.CompareDumps(t, a, seriestest.Dump(t, client(t, pcpSrv)), seriestest.Dump(t, client(t, ourSrv)))
			t.Logf("%s: %d records, %d keys equal; departures: %d more set members, %d stale values PCP repeats, %d phantom instances PCP writes",
				a, st.Records, same, dep.MoreMembers, dep.StaleValues, dep.Phantoms)
		})
	}
}

// TestFastLoadMatchesPCP: pmseries -F loads metadata without values; ours
// with MetadataOnly writes the same keys.
func TestFastLoadMatchesPCP(t *testing.T) {
	bin := pcptest.NeedTool(t, "pmseries")
	conf := seriestest.WriteConf(t)
	for _, a := range []string{"omnibus_v3", "20041125"} {
		path := filepath.Join(qaArchives, a)
		pcpSrv, ourSrv := redistest.Start(t), redistest.Start(t)
		cmd := exec.Command(bin, "-c", conf, "-p", strconv.Itoa(pcpSrv.Port), "-F", "--load", path)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("PCP's pmseries -F --load: %v\n%s", err, out)
		}
		if _, err := Load(context.Background(), client(t, ourSrv), path, LoadOptions{MetadataOnly: true}); err != nil {
			t.Fatal(err)
		}
		same, dep := seriestest.CompareDumps(t, a+" -F", seriestest.Dump(t, client(t, pcpSrv)), seriestest.Dump(t, client(t, ourSrv)))
		t.Logf("%s -F: %d keys equal; %d more set members", a, same, dep.MoreMembers)
	}
}
