// Command app1 is PCP's trace demo app1.c in Go: one of each kind of
// trace, with the library's diagnostics on. It times a transaction
// "simple" over two seconds and "ascanbe" over one, observes 101.0 as
// "observe", sends 101.1 as the counter "counter" and passes the point
// "imouttahere". Run it beside the trace agent and look:
//
//	go run ./examples/trace/app1
//	pminfo -f trace
//
// PCP_TRACE_HOST, PCP_TRACE_PORT and the other PCP_TRACE_* variables are
// read as libpcp_trace reads them.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gopcp/gopcp/trace"
)

func main() {
	prog := filepath.Base(os.Args[0])
	opts, err := trace.EnvOptions(os.LookupEnv)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", prog, err)
	}
	opts.State = trace.StateAPI | trace.StateComms | trace.StatePDU
	opts.Log = os.Stderr
	c, err := trace.New(opts)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", prog, err)
		os.Exit(1)
	}
	defer c.Close()
	fmt.Fprintf(os.Stderr, "%s: start: %s (state=0x%x)\n", prog, trace.ErrText(0), int(opts.State))
	ctx := context.Background()
	fail := func(call string, err error) {
		fmt.Fprintf(os.Stderr, "%s: %s error: %s\n", prog, call, trace.ErrText(trace.CodeOf(err)))
		os.Exit(1)
	}
	for _, tx := range []struct {
		tag  string
		long time.Duration
	}{{"simple", 2 * time.Second}, {"ascanbe", time.Second}} {
		t := c.Start(tx.tag)
		time.Sleep(tx.long)
		if err := t.End(ctx); err != nil {
			fail("transaction end", err)
		}
	}
	if err := c.Observe(ctx, "observe", 101.0); err != nil {
		fail("observe", err)
	}
	if err := c.Counter(ctx, "counter", 101.1); err != nil {
		fail("counter", err)
	}
	if err := c.Point(ctx, "imouttahere"); err != nil {
		fail("point", err)
	}
}
