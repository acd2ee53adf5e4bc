package pmcd

import (
	"context"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// benchPMCDMetrics are the pmcd.* metrics bench/pmcd.sh fetches.
var benchPMCDMetrics = []string{"pmcd.version", "pmcd.numagents", "pmcd.numclients",
	"pmcd.control.timeout", "pmcd.pdu_in.total", "pmcd.pdu_out.total", "pmcd.agent.status",
	"pmcd.agent.type", "pmcd.control.register", "pmcd.hostname"}

// BenchmarkFetchPMCD is one client's fetch round trips of pmcd's own
// metrics over TCP: the daemon's cost per fetch (allocations included)
// with the in-process agent, as bench/pmcd.sh measures it side by side.
func BenchmarkFetchPMCD(b *testing.B) {
	conf := &Conf{Agents: []AgentConf{{Name: "pmcd", Domain: 2, Kind: AgentDSO, Entry: pmcdEntry}}}
	tree, err := AgentNamespace(context.Background(), conf, nil)
	if err != nil {
		b.Fatal(err)
	}
	host := serveOn(b, &Server{PMNS: tree, Conf: conf})
	_, r, w := dial(b, host)
	ids := make([]pcp.PMID, len(benchPMCDMetrics))
	for i, n := range benchPMCDMetrics {
		if ids[i], err = tree.Lookup(n); err != nil {
			b.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	req := &pdu.Fetch{Context: 0, PMIDs: ids}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if err := w.WriteMessage(ctx, req, 1); err != nil {
			b.Fatal(err)
		}
		if _, err := r.ReadPDU(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
