// Command pmdatrivial is the trivial agent (package agents/trivial) as a
// daemon for pmcd: by default it talks to pmcd on standard input and
// output, as pmcd.conf's "pipe binary" line starts it.
//
//	trivial	250	pipe	binary	/path/to/pmdatrivial -d 250
//
// Options are PCP's for daemon agents: -d domain, -l logfile (default
// trivial.log), -p (pipe), -i port and -u socket (wait for pmcd to
// connect), -U user and -D debug (accepted and ignored).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/gopcp/gopcp/agents/trivial"
	"github.com/gopcp/gopcp/pmda"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	opts := pmda.DaemonOptions{Domain: trivial.Domain, LogFile: "trivial.log"}
	fs := flag.NewFlagSet(trivial.Name, flag.ContinueOnError)
	opts.Flags(fs)
	if err := fs.Parse(args); err != nil {
		return 1
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "%s: unexpected argument %q\n", trivial.Name, fs.Arg(0))
		fs.Usage()
		return 1
	}
	logger, closer, err := opts.OpenLog(trivial.Name + ": ")
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", trivial.Name, err)
		return 1
	}
	defer closer.Close()
	agent, err := trivial.New(opts.Domain, logger)
	if err != nil {
		logger.Print(err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	logger.Printf("started, domain %d", opts.Domain)
	if err := opts.Run(ctx, agent, os.Stdin, os.Stdout); err != nil {
		logger.Print(err)
		return 1
	}
	logger.Print("pmcd closed the connection; exiting")
	return 0
}
