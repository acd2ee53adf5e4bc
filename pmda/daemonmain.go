package pmda

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"syscall"
)

// Main is the body of a daemon agent's main function. fs holds o's options
// (see Flags) and any the agent adds; Main parses args with it, opens the
// log, calls build with the logger (o.Domain is set by then) and serves the
// agent on the channel o names until pmcd goes away or SIGINT or SIGTERM
// arrives. It returns the exit status: 0 when pmcd closed the connection,
// 1 on any error, which goes to the log once it is open and to standard
// error before. Main leaves every other signal as the program has it: our
// agents' mains give SIGUSR1, SIGALRM and SIGXFSZ their default action
// first, as in PCP's agents, which a library must not do to a program
// that may want them (signal.Notify would no longer deliver them).
func (o *DaemonOptions) Main(fs *flag.FlagSet, args []string, build func(*log.Logger) (*Agent, error)) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return o.main(ctx, fs, args, build, os.Stdin, os.Stdout, os.Stderr)
}

func (o *DaemonOptions) main(ctx context.Context, fs *flag.FlagSet, args []string, build func(*log.Logger) (*Agent, error), stdin io.Reader, stdout, stderr io.Writer) int {
	name := fs.Name()
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return 1
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "%s: unexpected argument %q\n", name, fs.Arg(0))
		fs.Usage()
		return 1
	}
	// The port or socket first: an agent that cannot have it touches
	// no file, so the copy already running keeps its log.
	ln, release, err := o.listen()
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return 1
	}
	defer release()
	logger, closer, err := o.openLog(name+": ", stderr)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return 1
	}
	defer closer.Close()
	agent, err := build(logger)
	if err != nil {
		logger.Print(err)
		return 1
	}
	// What the agent holds ends before the log closes, so its last words
	// are kept.
	defer func() {
		if err := agent.Close(); err != nil {
			logger.Print(err)
		}
	}()
	logger.Printf("started, domain %d", o.Domain)
	if err := serveOn(ctx, agent, ln, stdin, stdout); err != nil {
		logger.Print(err)
		return 1
	}
	logger.Print("pmcd closed the connection; exiting")
	return 0
}
