// Command pmdasimple is the simple agent (package agents/simple) as a
// daemon for pmcd: by default it talks to pmcd on standard input and
// output, as pmcd.conf's "pipe binary" line starts it.
//
//	simple	253	pipe	binary	/path/to/pmdasimple -d 253
//
// Options are PCP's for daemon agents: -d domain, -l logfile (default
// simple.log), -p (pipe), -i port and -u socket (wait for pmcd to
// connect), -U user and -D debug (accepted and ignored). simple.now's
// instances are read from $PCP_PMDAS_DIR/simple/simple.conf, or from the
// file named by -c, which PCP's agent does not have.
package main

import (
	"flag"
	"log"
	"os"

	"github.com/gopcp/gopcp/agents/simple"
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
	opts := pmda.DaemonOptions{Domain: simple.Domain, LogFile: "simple.log"}
	fs := flag.NewFlagSet(simple.Name, flag.ContinueOnError)
	opts.Flags(fs)
	config := fs.String("c", "", "read simple.now's instances from `file` (default $PCP_PMDAS_DIR/simple/simple.conf)")
	return opts.Main(fs, args, func(logger *log.Logger) (*pmda.Agent, error) {
		return simple.New(opts.Domain, simple.Options{Config: *config, Log: logger})
	})
}
