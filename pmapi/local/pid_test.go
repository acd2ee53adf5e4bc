package local

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// TestCompanionDaemonPID fetches sample.daemon_pid from the sample
// agent in Companion: it is the program's pid, as PCP's DSO in the
// tool's own process gives (pminfo -L -f sample.daemon_pid), not the
// companion's.
func TestCompanionDaemonPID(t *testing.T) {
	find := companionFinder(t)
	hideInProcess(t, "sample_init")
	var warn bytes.Buffer
	c := sampleContext(t, &warn, WithCompanion(find))
	defer c.Close()
	if _, ok := c.agents[29].(*pipeAgent); !ok {
		t.Fatalf("the sample agent is a %T; warnings %q", c.agents[29], warn.String())
	}
	ctx := context.Background()
	ids, err := c.LookupNames(ctx, []string{"sample.daemon_pid"})
	if err != nil {
		t.Fatal(err)
	}
	var r pcp.Result
	if _, err := c.Fetch(ctx, ids, &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Sets) != 1 || len(r.Sets[0].Values) != 1 {
		t.Fatalf("fetch: %+v", r.Sets)
	}
	if got := r.Sets[0].Values[0].LVal; got != int32(os.Getpid()) {
		t.Errorf("sample.daemon_pid %d, want this program's pid %d", got, os.Getpid())
	}
}
