// Command pmdammv is the MMV agent (package agents/mmv) as a daemon for
// pmcd, as PCP's pmdammv runs when not loaded as a DSO:
//
//	mmv	70	pipe	binary	/path/to/pmdammv -d 70
//
// As PCP's, it takes its prefix from its own name: run as pmdammv it
// serves mmv.* from $PCP_TMP_DIR/mmv and logs to mmv.log; under another
// name pmdaX it serves X.* from $PCP_TMP_DIR/X. Options are PCP's for
// daemon agents: -d domain, -l logfile, -p (pipe), -i port and -u socket
// (wait for pmcd to connect), -U user and -D debug (accepted and ignored).
package main

import (
	"flag"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/gopcp/gopcp/agents/mmv"
	"github.com/gopcp/gopcp/internal/pcpconf"
	"github.com/gopcp/gopcp/internal/sigfrom"
	"github.com/gopcp/gopcp/pmda"
)

func main() {
	// As PCP's agents, which set no handler for them: SIGUSR1 and
	// SIGALRM end the agent, SIGXFSZ dumps core.
	_ = sigfrom.AsPCPDaemon()
	os.Exit(run(filepath.Base(os.Args[0]), os.Args[1:]))
}

// prefixOf is the prefix for a program called progname: what follows
// "pmda", else mmv.
func prefixOf(progname string) string {
	if p, ok := strings.CutPrefix(progname, "pmda"); ok && p != "" {
		return p
	}
	return mmv.Prefix
}

func run(progname string, args []string) int {
	prefix := prefixOf(progname)
	opts := pmda.DaemonOptions{Domain: mmv.Domain, LogFile: prefix + ".log"}
	fs := flag.NewFlagSet(progname, flag.ContinueOnError)
	opts.Flags(fs)
	tmp, _ := pcpconf.Get("PCP_TMP_DIR")
	return opts.Main(fs, args, func(logger *log.Logger) (*pmda.Agent, error) {
		return mmv.New(opts.Domain, mmv.Options{Dir: filepath.Join(tmp, prefix), Prefix: prefix, Log: logger})
	})
}
