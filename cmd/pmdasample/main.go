// Command pmdasample is the sample agent (package agents/sample) as a
// daemon for pmcd: by default it talks to pmcd on standard input and
// output, as pmcd.conf's "pipe binary" line starts it.
//
//	sample	29	pipe	binary	/path/to/pmdasample -d 29
//
// Options are PCP's for daemon agents: -d domain, -l logfile (default
// sample.log), -p (pipe), -i port and -u socket (wait for pmcd to
// connect), -U user and -D debug (accepted and ignored). A store of -1
// into sample.control makes it exit once the store is answered.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	"github.com/gopcp/gopcp/agents/sample"
	"github.com/gopcp/gopcp/internal/sigfrom"
	"github.com/gopcp/gopcp/pmda"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

// stopReader reads from r until stop is set, then reports end of input,
// so that the agent finishes the request in hand and leaves cleanly.
type stopReader struct {
	r    io.Reader
	stop *atomic.Bool
}

func (s stopReader) Read(p []byte) (int, error) {
	if s.stop.Load() {
		return 0, io.EOF
	}
	return s.r.Read(p)
}

func run(args []string) int {
	opts := pmda.DaemonOptions{Domain: sample.Domain, LogFile: "sample.log"}
	fs := flag.NewFlagSet(sample.Name, flag.ContinueOnError)
	opts.Flags(fs)
	if err := fs.Parse(args); err != nil {
		return 1
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "%s: unexpected argument %q\n", sample.Name, fs.Arg(0))
		fs.Usage()
		return 1
	}
	logger, closer, err := opts.OpenLog(sample.Name + ": ")
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", sample.Name, err)
		return 1
	}
	defer closer.Close()
	// As libpcp_pmda's agents, which set no handler for them (PCP's
	// pmdasample too): SIGUSR1 and SIGALRM end the agent, SIGXFSZ dumps
	// core, where the Go runtime would carry on.
	_ = sigfrom.AsPCPDaemon()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// Gratuitous hangups, from a terminal say, are no reason to leave.
	signal.Ignore(syscall.SIGHUP)

	var stopping atomic.Bool
	agent, err := sample.New(opts.Domain, sample.Options{
		Log: logger,
		Exit: func() {
			stopping.Store(true)
			if opts.Port != 0 || opts.Socket != "" {
				stop()
			}
		},
	})
	if err != nil {
		logger.Print(err)
		return 1
	}
	logger.Printf("started, domain %d", opts.Domain)
	// The pipes are served through Go's poller (pmda.PipeStreams), as
	// Run serves them when given the files themselves.
	in, out := pmda.PipeStreams(os.Stdin, os.Stdout)
	if err := opts.Run(ctx, agent, stopReader{in, &stopping}, out); err != nil && !stopping.Load() {
		logger.Print(err)
		return 1
	}
	logger.Print("exiting")
	return 0
}
