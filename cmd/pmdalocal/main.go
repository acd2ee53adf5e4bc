// Command pmdalocal runs gopcp's agents (package agents/all) for a
// local context (-L, -K) of a program that does not link them: pminfo,
// pmval, pmprobe and pmstore start it, beside their own executable or
// from $PATH, one process for the context's agents, and ask it on its
// standard input and output with pmcd's agent PDUs (package pmapi/local;
// its side, package pmapi/local/agentserver). It ends when its input
// ends or its parent does.
//
//	pmdalocal entry domain [entry domain]...
//
// entry is an agent's PCP entry point, such as sample_init; domain is
// its domain number. It is installed with the tools and not meant to be
// run by hand.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"

	_ "github.com/gopcp/gopcp/agents/all"
	"github.com/gopcp/gopcp/pmapi/local/agentserver"
	"github.com/gopcp/gopcp/pmda"
)

func main() {
	// What an agent says is its own pid is the tool's, whose process
	// PCP's DSO would have been loaded into; the tool started this one.
	pmda.SetHostPID(os.Getppid())
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr))
}

func run(argv []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(argv) < 3 || len(argv)%2 == 0 {
		fmt.Fprintf(stderr, "Usage: %s entry domain [entry domain]...\n", agentserver.Program)
		return 2
	}
	var list []agentserver.Entry
	for i := 1; i < len(argv); i += 2 {
		domain, err := strconv.ParseUint(argv[i+1], 10, 9) // PCP's domains are 9 bits
		if err != nil {
			fmt.Fprintf(stderr, "%s: bad domain %q\n", agentserver.Program, argv[i+1])
			return 2
		}
		list = append(list, agentserver.Entry{Domain: int(domain), Entry: argv[i]})
	}
	if err := agentserver.Serve(context.Background(), list, stdin, stdout); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", agentserver.Program, err)
		return 1
	}
	return 0
}
