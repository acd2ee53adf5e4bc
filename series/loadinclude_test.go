package series

import (
	"context"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/redistest"
	"github.com/gopcp/gopcp/internal/testing/seriestest"
)

// TestLoadIncludeMatchesPCP loads archives through load expressions with
// metric.name filters, PCP's pmseries into one Redis and ours
// (LoadSource, LoadOptions.Include) into another: key for key alike but
// for the loader's departures.
func TestLoadIncludeMatchesPCP(t *testing.T) {
	bin := pcptest.NeedTool(t, "pmseries")
	conf := seriestest.WriteConf(t)
	for _, expr := range []string{
		`{source.path:"` + filepath.Join(qaArchives, "sample-labels") + `", metric.name:"sample.colour"}`,
		`{source.path:"` + filepath.Join(qaArchives, "20041125") + `", m.name:"kernel.all", metric.name:"mem.util.free"}`,
		`{source.path:"` + filepath.Join(qaArchives, "sample-labels") + `", metric.name:"nosuch"}`,
	} {
		pcpSrv, ourSrv := redistest.Start(t), redistest.Start(t)
		if out, err := exec.Command(bin, "-c", conf, "-p", strconv.Itoa(pcpSrv.Port), "--load", expr).CombinedOutput(); err != nil {
			t.Fatalf("PCP's pmseries --load %s: %v\n%s", expr, err, out)
		}
		path, metrics, err := LoadSource(expr)
		if err != nil {
			t.Fatal(err)
		}
		st, err := Load(context.Background(), client(t, ourSrv), path, LoadOptions{Include: metrics})
		if err != nil {
			t.Fatal(err)
		}
		same, dep := seriestest.CompareDumps(t, expr, seriestest.Dump(t, client(t, pcpSrv)), seriestest.Dump(t, client(t, ourSrv)))
		t.Logf("%s: %d keys equal (unknown names %q; departures: %d more set members, %d stale values)",
			expr, same, st.Unknown, dep.MoreMembers, dep.StaleValues)
	}
}
