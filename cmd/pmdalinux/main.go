// Command pmdalinux is the Linux kernel agent (package agents/linux) as a
// daemon for pmcd: by default it talks to pmcd on standard input and
// output, as pmcd.conf's "pipe binary" line starts it.
//
//	linux	60	pipe	binary	/path/to/pmdalinux -d 60
//
// Options are PCP's for daemon agents: -d domain, -l logfile (default
// linux.log), -p (pipe), -i port and -u socket (wait for pmcd to
// connect), -U user and -D debug (accepted and ignored), and the Linux
// agent's -A (root-only metrics for every client). $LINUX_STATSPATH
// moves the /proc, /sys and /etc trees the agent reads, as for PCP's
// agent.
package main

import (
	"flag"
	"log"
	"os"

	"github.com/gopcp/gopcp/agents/linux"
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
	opts := pmda.DaemonOptions{Domain: linux.Domain, LogFile: "linux.log"}
	fs := flag.NewFlagSet(linux.Name, flag.ContinueOnError)
	opts.Flags(fs)
	allAccess := fs.Bool("A", false, "serve mem.slabinfo and tty.serial to every client, not only root's")
	return opts.Main(fs, args, func(logger *log.Logger) (*pmda.Agent, error) {
		o := linux.EnvOptions(os.Getenv)
		o.Log, o.AllAccess = logger, o.AllAccess || *allAccess
		return linux.New(opts.Domain, o)
	})
}
