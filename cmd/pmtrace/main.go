// Command pmtrace is PCP's pmtrace on the trace package: it sends one
// datum to the trace agent, always in the asynchronous protocol, as PCP's
// does. With no option it passes a point; -c value sends a counter, -v
// value an observation, -e command runs the command through the shell as
// a transaction. -h host names the agent's host (else PCP_TRACE_HOST,
// else this host), -S state sets pmtracestate flags (a number in C's
// forms), -q leaves out the message of success. The other PCP_TRACE_*
// variables are read as libpcp_trace reads them. As PCP's, it exits 0
// after a trace error, and with the command's status after -e.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gopcp/gopcp/internal/sigfrom"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/trace"
)

func main() {
	asC = sigfrom.AsC() == nil
	os.Exit(run(os.Args[0], os.Args[1:], os.LookupEnv, os.Stdout, os.Stderr))
}

// kind is the datum the command line asks for.
type kind int

const (
	point kind = iota
	counter
	observe
	transact
)

func usage(w io.Writer, me string) {
	fmt.Fprintf(w, `Usage: %s [-q] [-c value|-e command|-v value] [-h host] [-S state] tag

Options:
  -c value    export a counter value through the trace PMDA
  -e command  run command and export transaction data
  -h host     send trace data to trace PMDA on given host
  -q          quiet mode - suppress message from successful trace
  -S state    set debug state using pmtracestate(3) as bit-wise
              combination of these flags:
	       1 Shows processing just below the API
	       2 Shows network-related activity
	       4 Shows app<->PMDA IPC traffic
	       8 Shows internal IPC buffer management
	      16 No PMDA communications at all
  -v value    export an observation value through the trace PMDA

%s always uses the asynchronous PDU protocol mode.
`, me, me)
}

// run is pmtrace run as argv0: its own messages name the program by
// argv0's base name (pmGetProgname), getopt's by argv0 whole, as glibc's
// getopt writes argv[0] as it was given.
func run(argv0 string, args []string, lookup func(string) (string, bool), stdout, stderr io.Writer) int {
	me := filepath.Base(argv0)
	var (
		errs    int
		state   int
		quiet   bool
		host    *string
		k       = point
		value   float64
		command string
	)
	one := func(want kind) {
		if k != point {
			fmt.Fprintf(stderr, "%s: only one of -c, -v or -e allowed\n", me)
			errs++
		}
		k = want
	}
	number := func(s string) {
		v, err := strtod(s)
		if err != nil {
			fmt.Fprintf(stderr, "%s: -v requires a numeric argument\n", me)
			errs++
		}
		value = v
	}
	// PCP's option string has '?', so -? is an option of its own that
	// asks for the usage text, without getopt's complaint.
	operands := getopt(args, "S:c:e:h:qv:?", func(c byte, arg string) {
		switch c {
		case 'c':
			one(counter)
			number(arg)
		case 'e':
			one(transact)
			command = arg
		case 'h':
			host = &arg
		case 'q':
			quiet = true
		case 'S':
			n, end := strtol(arg)
			if end == 0 || end != len(arg) {
				fmt.Fprintf(stderr, "%s: -S requires a numeric argument\n", me)
				errs++
				return
			}
			state |= int(int32(n))
		case 'v':
			one(observe)
			number(arg)
		case '?':
			errs++
		}
	}, func(msg string) {
		fmt.Fprintf(stderr, "%s: %s\n", argv0, msg)
		errs++
	})
	if errs > 0 || len(operands) != 1 {
		usage(stderr, me)
		return 0
	}
	tag := operands[0]

	// libpcp_trace warns of bad values itself, when it connects
	opts, _ := trace.EnvOptions(lookup)
	opts.Warn = stderr
	if host != nil {
		// pmtrace puts -h in PCP_TRACE_HOST, an empty one too
		opts.Host, opts.EmptyHost = *host, *host == ""
	}
	opts.Async = true
	opts.State = trace.State(state)
	opts.Log = stderr
	if asC {
		withSignals(&opts)
	}
	c, err := trace.New(opts)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", me, err)
		return 0
	}
	defer c.Close()
	ctx := context.Background()
	switch k {
	case counter:
		if err := c.Counter(ctx, tag, value); err != nil {
			fmt.Fprintf(stderr, "%s: counter error: %s\n", me, trace.ErrText(trace.CodeOf(err)))
			return 0
		}
		if !quiet {
			fmt.Fprintf(stdout, "%s: counter complete (tag=\"%s\", value=%s)\n", me, tag, pcp.FormatFloat(value, 'f', 6))
		}
	case observe:
		if err := c.Observe(ctx, tag, value); err != nil {
			fmt.Fprintf(stderr, "%s: observation error: %s\n", me, trace.ErrText(trace.CodeOf(err)))
			return 0
		}
		if !quiet {
			fmt.Fprintf(stdout, "%s: observation complete (tag=\"%s\", value=%s)\n", me, tag, pcp.FormatFloat(value, 'f', 6))
		}
	case transact:
		berr := c.Begin(ctx, tag)
		if berr != nil {
			fmt.Fprintf(stderr, "%s: transaction begin error: %s\n", me, trace.ErrText(trace.CodeOf(berr)))
		}
		status := system(command, stdout, stderr)
		if status < 0 {
			fmt.Fprintf(stderr, "%s: system error running '%s'\n", me, command)
			return 0
		}
		if berr != nil {
			return status
		}
		if err := c.End(ctx, tag); err != nil {
			fmt.Fprintf(stderr, "%s: transaction end error: %s\n", me, trace.ErrText(trace.CodeOf(err)))
			return status
		}
		if !quiet {
			fmt.Fprintf(stdout, "%s: transaction complete (tag=\"%s\")\n", me, tag)
		}
		return status
	default:
		if err := c.Point(ctx, tag); err != nil {
			fmt.Fprintf(stderr, "%s: point error: %s\n", me, trace.ErrText(trace.CodeOf(err)))
			return 0
		}
		if !quiet {
			fmt.Fprintf(stdout, "%s: point complete (tag=\"%s\")\n", me, tag)
		}
	}
	return 0
}

// system runs command with /bin/sh -c as system(3) does and returns what
// PCP's pmtrace exits with: system's raw wait status, truncated to a byte
// by exit (so a command exiting 1 gives 0 and only signals show).
func system(command string, stdout, stderr io.Writer) int {
	cmd := exec.Command("/bin/sh", "-c", command)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
	err := cmd.Start()
	if err == nil {
		if asC {
			defer whileSystem()()
		}
		err = cmd.Wait()
	}
	if cmd.ProcessState == nil {
		if err != nil {
			return -1
		}
		return 0
	}
	return rawStatus(cmd.ProcessState) & 0xff
}

// strtod reads a whole argument as pmtrace's strtod(optarg, &end) with
// *end checked: glibc's strtod (pcp.Strtod) after leading white space,
// nothing left over. An empty argument is 0, as strtod leaves end at its
// terminating NUL; white space alone is not a number.
func strtod(s string) (float64, error) {
	t := strings.TrimLeft(s, " \t\n\v\f\r")
	v, n, _ := pcp.Strtod(t)
	if (n == 0 && s != "") || n < len(t) {
		return 0, strconv.ErrSyntax
	}
	return v, nil
}
