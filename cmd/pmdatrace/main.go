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
// (accepted, not acted on). The programs' port is bound before the log is
// touched, so a second copy leaves the first one's log alone.
package main

import (
	"context"
	"errors"
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
	"github.com/gopcp/gopcp/pmapi"
	"github.com/gopcp/gopcp/pmda"
	"github.com/gopcp/gopcp/trace"
)

func main() {
	// As PCP's agents, which set no handler for them: SIGUSR1 and
	// SIGALRM end the agent, SIGXFSZ dumps core.
	_ = sigfrom.AsPCPDaemon()
	os.Exit(run(filepath.Base(os.Args[0]), os.Args[1:], os.LookupEnv, os.Stderr))
}

// config is what the command line says.
type config struct {
	daemon pmda.DaemonOptions
	agent  atrace.Options
	port   int // -1: not given
}

// flags registers pmdatrace's options on a new flag set filling cfg.
func flags(name string, cfg *config) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.Func("d", "use domain `number` for the metrics (default 10)", func(s string) error {
		n, err := strconv.ParseUint(s, 10, 32)
		if err != nil || n == 0 || n >= 511 {
			return fmt.Errorf("bad domain %q", s)
		}
		cfg.daemon.Domain = uint32(n)
		return nil
	})
	fs.StringVar(&cfg.daemon.LogFile, "l", cfg.daemon.LogFile, "write the log into `logfile`")
	fs.StringVar(&cfg.daemon.Debug, "D", "", "debug `options` (accepted, not acted on)")
	fs.StringVar(&cfg.daemon.Username, "M", "", "run as `username` (accepted, not acted on)")
	fs.Func("A", "host based `access` control: allow:HOST[:MAXCONN] or disallow:HOST", func(s string) error {
		if err := atrace.CheckAccess(s); err != nil {
			return err
		}
		cfg.agent.Access = append(cfg.agent.Access, s)
		return nil
	})
	fs.Func("I", "expect programs to connect on inet `port`", func(s string) error {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || n > 65535 {
			return fmt.Errorf("bad port %q", s)
		}
		cfg.port = n
		return nil
	})
	fs.Func("N", "number of historical data `buckets` kept (default 5)", func(s string) error {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return errors.New("-N requires a positive number")
		}
		cfg.agent.Buckets = n
		return nil
	})
	fs.Func("T", "time `period` over which samples are considered (default 60 seconds)", func(s string) error {
		d, err := pmapi.ParseInterval(s)
		if err != nil {
			return fmt.Errorf("-T requires a time interval: %v", err)
		}
		cfg.agent.Period = d
		return nil
	})
	fs.Func("U", "export observation values in `units` (six integers)", func(s string) error {
		u, err := atrace.ParseUnits(s)
		cfg.agent.ObserveUnits = u
		return err
	})
	fs.Func("V", "export counter values in `units` (six integers)", func(s string) error {
		u, err := atrace.ParseUnits(s)
		cfg.agent.CounterUnits = u
		return err
	})
	return fs
}

func newConfig() *config {
	return &config{daemon: pmda.DaemonOptions{Domain: atrace.Domain, LogFile: "trace.log"}, port: -1}
}

func run(name string, args []string, lookup func(string) (string, bool), stderr io.Writer) int {
	// A first reading of the options finds the programs' port, bound
	// before DaemonOptions.Main opens the log.
	pre := newConfig()
	pfs := flags(name, pre)
	pfs.SetOutput(io.Discard)
	if err := pfs.Parse(args); err != nil {
		fs := flags(name, newConfig())
		fs.SetOutput(stderr)
		fs.Parse(args) // says what is wrong, as the real reading would
		return 1
	}
	if pfs.NArg() > 0 {
		fmt.Fprintf(stderr, "%s: unexpected argument %q\n", name, pfs.Arg(0))
		pfs.SetOutput(stderr)
		pfs.Usage()
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

	cfg := newConfig()
	fs := flags(name, cfg)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	started := false
	status := cfg.daemon.Main(fs, args, func(logger *log.Logger) (*pmda.Agent, error) {
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
