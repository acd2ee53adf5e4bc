package pmcd

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmns"
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
	ids := make([]pcp.PMID, len(benchPMCDMetrics))
	for i, n := range benchPMCDMetrics {
		if ids[i], err = tree.Lookup(n); err != nil {
			b.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	benchFetch(b, ctx, &Server{PMNS: tree, Conf: conf}, ids...)
}

// BenchmarkFetchPipeAgent is one client's fetch round trips relayed to a
// pipe agent (this test binary as an agent of one metric): pmcd's own
// cost per relayed fetch, allocations included, the agent's and the
// benchmark client's added.
func BenchmarkFetchPipeAgent(b *testing.B) {
	tree, err := pmns.Parse(strings.NewReader(agentsPMNS), pmns.Options{})
	if err != nil {
		b.Fatal(err)
	}
	env, err := exec.LookPath("env")
	if err != nil {
		b.Skip("no env program to start the pipe agent with")
	}
	conf, err := ParseConf(strings.NewReader(fmt.Sprintf("fine 251 pipe binary %s %s=fine %s\n", env, testAgentEnv, os.Args[0])), "bench")
	if err != nil {
		b.Fatal(err)
	}
	benchFetch(b, context.Background(), &Server{PMNS: tree, Conf: conf, AgentStderr: os.Stderr}, pcp.NewPMID(251, 0, 0))
}

// BenchmarkFetchPipeAgentTwoClients is BenchmarkFetchPipeAgent with two
// clients taking turns, so that each fetch sends the agent the other
// client's profile first, as 32 clients of bench/pmcd.sh do.
func BenchmarkFetchPipeAgentTwoClients(b *testing.B) {
	tree, err := pmns.Parse(strings.NewReader(agentsPMNS), pmns.Options{})
	if err != nil {
		b.Fatal(err)
	}
	env, err := exec.LookPath("env")
	if err != nil {
		b.Skip("no env program to start the pipe agent with")
	}
	conf, err := ParseConf(strings.NewReader(fmt.Sprintf("fine 251 pipe binary %s %s=fine %s\n", env, testAgentEnv, os.Args[0])), "bench")
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	addr := serveOn(b, &Server{PMNS: tree, Conf: conf, AgentStderr: os.Stderr})
	var rs [2]*pdu.Reader
	var ws [2]*pdu.Writer
	for i := range rs {
		_, rs[i], ws[i] = dial(b, addr)
	}
	req := &pdu.Fetch{Context: 0, PMIDs: []pcp.PMID{pcp.NewPMID(251, 0, 0)}}
	roundTrip := func(i int) {
		if err := ws[i].WriteMessage(ctx, req, 1); err != nil {
			b.Fatal(err)
		}
		reply, err := rs[i].ReadPDU(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if h, _ := pdu.ParseHeader(reply); h.Type != pdu.TypeResult {
			b.Fatalf("answered with %v", h.Type)
		}
	}
	roundTrip(0)
	roundTrip(1)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		roundTrip(i & 1)
	}
}

// BenchmarkFetchDSOAgent is BenchmarkFetchPipeAgent for an in-process
// agent other than pmcd's own (the trivial agent), which pmcd calls on a
// goroutine of its own to time it out.
func BenchmarkFetchDSOAgent(b *testing.B) {
	tree, err := pmns.Parse(strings.NewReader(agentsPMNS), pmns.Options{})
	if err != nil {
		b.Fatal(err)
	}
	conf, err := ParseConf(strings.NewReader("trivial\t250\tdso\ttrivial_init\t/nonexistent/pmda_trivial.so\n"), "bench")
	if err != nil {
		b.Fatal(err)
	}
	benchFetch(b, context.Background(), &Server{PMNS: tree, Conf: conf}, pcp.NewPMID(250, 0, 0))
}

// benchFetch serves srv and times one client's fetch round trips of ids
// through it, each answered with a RESULT, after one round trip that
// warms the daemon and its agents up.
func benchFetch(b *testing.B, ctx context.Context, srv *Server, ids ...pcp.PMID) {
	b.Helper()
	_, r, w := dial(b, serveOn(b, srv))
	req := &pdu.Fetch{Context: 0, PMIDs: ids}
	roundTrip := func() {
		if err := w.WriteMessage(ctx, req, 1); err != nil {
			b.Fatal(err)
		}
		reply, err := r.ReadPDU(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if h, _ := pdu.ParseHeader(reply); h.Type != pdu.TypeResult {
			b.Fatalf("answered with %v", h.Type)
		}
	}
	roundTrip()
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := processCPU()
	for range b.N {
		roundTrip()
	}
	reportCPU(b, cpu0)
}
