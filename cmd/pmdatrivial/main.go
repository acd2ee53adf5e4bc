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
	"flag"
	"log"
	"os"

	"github.com/gopcp/gopcp/agents/trivial"
	"github.com/gopcp/gopcp/internal/sigfrom"
	"github.com/gopcp/gopcp/pmda"
)

func main() {
	// As PCP's agents, which set no handler for them: SIGUSR1 and
	// SIGALRM end the agent, SIGXFSZ dumps core.
	_ = sigfrom.AsPCPDaemon()
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	opts := pmda.DaemonOptions{Domain: trivial.Domain, LogFile: "trivial.log"}
	fs := flag.NewFlagSet(trivial.Name, flag.ContinueOnError)
	opts.Flags(fs)
	return opts.Main(fs, args, func(logger *log.Logger) (*pmda.Agent, error) {
		return trivial.New(opts.Domain, logger)
	})
}
