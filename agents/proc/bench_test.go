package proc

import (
	"context"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// BenchmarkFetchPsinfoMemory is one fetch of every proc.psinfo.* and
// proc.memory.* metric of every process of the host, in-process.
func BenchmarkFetchPsinfoMemory(b *testing.B) {
	a := testAgent(b, "")
	var ids []pcp.PMID
	for i := range pcpDescs {
		d := &pcpDescs[i]
		if strings.HasPrefix(d.Name, "proc.psinfo.") || strings.HasPrefix(d.Name, "proc.memory.") {
			ids = append(ids, pcp.NewPMID(Domain, d.Cluster, d.Item))
		}
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := a.Fetch(ctx, 1, ids); err != nil {
			b.Fatal(err)
		}
	}
}
