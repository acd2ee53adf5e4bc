// Command pmdajbd2 is the jbd2 agent (package agents/jbd2) as a daemon
// for pmcd: by default it talks to pmcd on standard input and output, as
// pmcd.conf's "pipe binary" line starts it.
//
//	jbd2	122	pipe	binary	/path/to/pmdajbd2 -d 122
//
// Options are PCP's pmdajbd2's: -j path reads the journals from path
// rather than /proc/fs/jbd2 (for tests and other roots), and those of
// every daemon agent: -d domain, -l logfile (default jbd2.log), -p (pipe),
// -i port and -u socket (wait for pmcd to connect), -U user and -D debug
// (accepted and ignored).
package main

import (
	"flag"
	"log"
	"os"

	"github.com/gopcp/gopcp/agents/jbd2"
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
	opts := pmda.DaemonOptions{Domain: jbd2.Domain, LogFile: "jbd2.log"}
	fs := flag.NewFlagSet(jbd2.Name, flag.ContinueOnError)
	opts.Flags(fs)
	dir := fs.String("j", jbd2.DefaultDir, "read the journals' statistics from `path`")
	return opts.Main(fs, args, func(logger *log.Logger) (*pmda.Agent, error) {
		return jbd2.New(opts.Domain, jbd2.Options{Dir: *dir, Log: logger})
	})
}
