package all

import (
	"context"
	"log"
	"net"
	"os"
	"strconv"

	atrace "github.com/gopcp/gopcp/agents/trace"
	"github.com/gopcp/gopcp/pmda"
	"github.com/gopcp/gopcp/trace"
)

// newTrace builds the agent for trace_init. PCP runs pmdatrace only as a daemon (a pipe line naming
// cmd/pmdatrace is the usual form); "trace_init" also lets a dso line or
// a local context have the trace agent in-process. It listens for
// programs on PCP_TRACE_PORT (else 4323) from its construction until its
// owner closes it (pmda.Agent.Close: pmcd dropping or replacing it, a
// local context closed), which closes the port and every program's
// connection and waits for the goroutines serving them; a port already
// taken is logged and the agent serves its metrics without programs.
func newTrace(domain uint32) (*pmda.Agent, error) {
	port := trace.DefaultPort
	if v, ok := os.LookupEnv(trace.EnvPort); ok {
		if n, err := strconv.ParseInt(v, 0, 32); err == nil && n >= 0 && n <= 65535 {
			port = int(n)
		}
	}
	a, err := atrace.New(domain, atrace.Options{Port: port, Log: log.Default(), PID: int32(pmda.HostPID())})
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", ":"+strconv.Itoa(port))
	if err != nil {
		log.Printf("trace agent: no programs: %v", err)
		return a.PMDA(), nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := a.Serve(ctx, ln); err != nil {
			log.Printf("trace agent: programs' listener: %v", err)
		}
	}()
	pa := a.PMDA()
	pa.OnClose(func() error {
		cancel()
		<-done
		return nil
	})
	return pa, nil
}
