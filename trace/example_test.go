package trace_test

import (
	"context"
	"fmt"
	"log"
	"net"

	atrace "github.com/gopcp/gopcp/agents/trace"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
	"github.com/gopcp/gopcp/trace"
)

// A program traced through the trace agent. The agent here is gopcp's,
// in this process on a loopback port, so that the example runs without
// PCP's pmdatrace; a real program leaves Host and Port to
// trace.EnvOptions (PCP_TRACE_HOST, PCP_TRACE_PORT) and reaches the
// pmdatrace pmcd runs.
func Example() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	agent, err := atrace.New(atrace.Domain, atrace.Options{ManualTicks: true})
	if err != nil {
		log.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- agent.Serve(ctx, ln) }()
	defer func() { cancel(); <-served }()

	c, err := trace.New(trace.Options{Host: "127.0.0.1", Port: ln.Addr().(*net.TCPAddr).Port})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	// Each call waits for the agent's acknowledgement (the synchronous
	// protocol, the default), so the agent has the data once it returns.
	for range 3 {
		if err := c.Point(ctx, "cache-miss"); err != nil {
			log.Fatal(err)
		}
	}
	if err := c.Observe(ctx, "queue-depth", 17); err != nil {
		log.Fatal(err)
	}
	tx := c.Start("checkout")
	if err := tx.End(ctx); err != nil {
		log.Fatal(err)
	}

	// What pminfo -f would show, asked of the agent directly.
	for _, item := range []uint32{0, 6, 10} { // trace.transact.count, trace.point.count, trace.observe.value
		pmid := pcp.NewPMID(atrace.Domain, 0, item)
		res, err := agent.PMDA().Fetch(ctx, pmda.Client(0), []pcp.PMID{pmid})
		if err != nil {
			log.Fatal(err)
		}
		m := agent.PMDA().Metric(pmid)
		set := res.Sets[0]
		for _, v := range set.Values {
			insts, err := agent.PMDA().Instance(ctx, pmda.Client(0), m.Desc.InDom, v.Inst, "")
			if err != nil {
				log.Fatal(err)
			}
			atom, err := pcp.ExtractValue(set.ValFmt, &v, m.Desc.Type, pcp.TypeDouble)
			if err != nil {
				log.Fatal(err)
			}
			fmt.Printf("%s[%s] %g\n", m.Name, insts.Entries[0].Name, atom.D)
		}
	}
	// Output:
	// trace.transact.count[checkout] 1
	// trace.point.count[cache-miss] 3
	// trace.observe.value[queue-depth] 17
}
