// Command pmdatrace is the trace agent (package agents/trace) as the
// daemon pmcd runs, as PCP runs its pmdatrace:
//
//	trace	10	pipe	binary	/path/to/pmdatrace -d 10
//
// Its options are pmdatrace's: -A access ("allow:HOST[:MAXCONN]" or
// "disallow:HOST", repeatable), -I port for programs (else
// PCP_TRACE_PORT, else 4323), -T period (an interval as pmParseInterval
// reads it; 60 seconds), -N buckets (5), -U and -V units of
// trace.observe.value and trace.counter.value (six comma-separated
// integers), -d domain, -l logfile (trace.log), -D debug and -M user
// (accepted, not acted on), read as PCP's pmdatrace reads them, with its
// messages and usage (options.go). The programs' port is bound before
// the log is touched, so a second copy leaves the first one's log alone.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"path/filepath"
	"strconv"

	atrace "github.com/gopcp/gopcp/agents/trace"
	"github.com/gopcp/gopcp/internal/sigfrom"
	"github.com/gopcp/gopcp/pmda"
	"github.com/gopcp/gopcp/trace"
)

func main() {
	// As PCP's agents, which set no handler for them: SIGUSR1 and
	// SIGALRM end the agent, SIGXFSZ dumps core.
	_ = sigfrom.AsPCPDaemon()
	os.Exit(run(filepath.Base(os.Args[0]), os.Args, os.Environ(), os.LookupEnv, os.Stderr))
}

// config is what the command line says.
type config struct {
	daemon pmda.DaemonOptions
	agent  atrace.Options
	port   int // -1: not given
}

func newConfig() *config {
	return &config{daemon: pmda.DaemonOptions{Domain: atrace.Domain, LogFile: "trace.log"}, port: -1}
}

// run is pmdatrace with its command line (argv[0] the program's path),
// name its name, env the environment in its order and lookup reading it.
func run(name string, argv, env []string, lookup func(string) (string, bool), stderr io.Writer) int {
	pre, ok := parseArgs(name, argv, env, stderr)
	if !ok {
		return 1
	}
	port := pre.port
	if port < 0 {
		port = trace.DefaultPort
		if v, ok := lookup(trace.EnvPort); ok {
			if n, err := strconv.ParseInt(v, 0, 32); err == nil && n >= 0 && n <= 65535 {
				port = int(n)
			} else {
				fmt.Fprintf(stderr, "%s: env port is bogus (%s)\n", name, v)
			}
		}
	}
	ln, err := net.Listen("tcp", ":"+strconv.Itoa(port))
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return 1
	}
	defer ln.Close()

	// the options are read: DaemonOptions.Main is given none
	cfg := pre
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	started := false
	status := cfg.daemon.Main(fs, nil, func(logger *log.Logger) (*pmda.Agent, error) {
		cfg.agent.Port = port
		cfg.agent.Log = logger
		cfg.agent.PID = int32(os.Getpid())
		a, err := atrace.New(cfg.daemon.Domain, cfg.agent)
		if err != nil {
			return nil, err
		}
		started = true
		go func() {
			defer close(done)
			if err := a.Serve(ctx, ln); err != nil {
				logger.Printf("trace listener: %v", err)
			}
		}()
		logger.Printf("programs connect on port %d", port)
		return a.PMDA(), nil
	})
	cancel()
	if started {
		<-done
	}
	return status
}
