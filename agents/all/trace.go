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

// PCP runs pmdatrace only as a daemon (a pipe line naming
// cmd/pmdatrace is the usual form); "trace_init" also lets a dso line or
// a local context have the trace agent in-process. It listens for
// programs on PCP_TRACE_PORT (else 4323) for the rest of the process's
// life, the agent's for as long as the process keeps it; a port already
// taken is logged and the agent serves its metrics without programs.
func init() {
	pmda.Register("trace_init", func(domain uint32) (*pmda.Agent, error) {
		port := trace.DefaultPort
		if v, ok := os.LookupEnv(trace.EnvPort); ok {
			if n, err := strconv.ParseInt(v, 0, 32); err == nil && n >= 0 && n <= 65535 {
				port = int(n)
			}
		}
		a, err := atrace.New(domain, atrace.Options{Port: port, Log: log.Default(), PID: int32(os.Getpid())})
		if err != nil {
			return nil, err
		}
		ln, err := net.Listen("tcp", ":"+strconv.Itoa(port))
		if err != nil {
			log.Printf("trace agent: no programs: %v", err)
			return a.PMDA(), nil
		}
		go a.Serve(context.Background(), ln)
		return a.PMDA(), nil
	})
}
