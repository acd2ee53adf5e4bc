// Command pmdaproc is the process agent (package agents/proc) as a
// daemon for pmcd, as pmcd.conf's "pipe binary" line starts it:
//
//	proc	3	pipe	binary	/path/to/pmdaproc -d 3
//
// Options are PCP's: -d domain, -l logfile (default proc.log), -p, -i
// port and -u socket, -U user and -D debug (accepted and ignored), and
// the agent's own -A (no access checks), -L (list threads too) and
// -r cgroup. PROC_STATSPATH, PROC_HERTZ, PROC_PAGESIZE, PROC_THREADS and
// PROC_ACCESS are read as PCP's agent reads them.
package main

import (
	"flag"
	"log"
	"os"

	"github.com/gopcp/gopcp/agents/proc"
	"github.com/gopcp/gopcp/internal/pcpconf"
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
	opts := pmda.DaemonOptions{Domain: proc.Domain, LogFile: "proc.log"}
	fs := flag.NewFlagSet(proc.Name, flag.ContinueOnError)
	opts.Flags(fs)
	allAccess := fs.Bool("A", false, "no access checks: every client sees every process's values")
	threads := fs.Bool("L", false, "list threads besides processes")
	cgroup := fs.String("r", "", "restrict the processes to the named cgroup")
	return opts.Main(fs, args, func(logger *log.Logger) (*pmda.Agent, error) {
		o := proc.OptionsFromEnv(pcpconfGet)
		o.Log = logger
		o.AllAccess = o.AllAccess || *allAccess
		o.Threads = o.Threads || *threads
		if *cgroup != "" {
			o.Cgroups = *cgroup
		}
		// Main closes the agent at exit, which turns private
		// accounting off.
		return proc.New(opts.Domain, o)
	})
}

// pcpconfGet reads a variable as libpcp's pmGetConfig does: the
// environment first, then pcp.conf (for the PCP_ names).
func pcpconfGet(name string) string {
	v, _ := pcpconf.Get(name)
	return v
}
