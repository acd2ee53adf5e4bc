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
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/gopcp/gopcp/agents/linux"
	"github.com/gopcp/gopcp/pmda"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	opts := pmda.DaemonOptions{Domain: linux.Domain, LogFile: "linux.log"}
	fs := flag.NewFlagSet(linux.Name, flag.ContinueOnError)
	opts.Flags(fs)
	allAccess := fs.Bool("A", false, "serve mem.slabinfo and tty.serial to every client, not only root's")
	if err := fs.Parse(args); err != nil {
		return 1
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "%s: unexpected argument %q\n", linux.Name, fs.Arg(0))
		fs.Usage()
		return 1
	}
	logger, closer, err := opts.OpenLog(linux.Name + ": ")
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", linux.Name, err)
		return 1
	}
	defer closer.Close()
	agent, err := linux.New(opts.Domain, linux.Options{Log: logger, AllAccess: *allAccess})
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
