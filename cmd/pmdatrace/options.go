package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	atrace "github.com/gopcp/gopcp/agents/trace"
	"github.com/gopcp/gopcp/internal/getopt"
	"github.com/gopcp/gopcp/pmapi"
)

// withArg are the options of PCP's pmdatrace that take an argument
// (its getopt string "A:D:d:I:l:T:M:N:U:V:?").
const withArg = "ADdITlMNUV"

// usageText is PCP's pmdatrace's usage message, %s its name.
const usageText = `Usage: %s [options]

Options:
  -d domain   use domain (numeric) for metrics domain of PMDA
  -l logfile  write log into logfile rather than using default file
  -A access   host based access control
  -I port     expect programs to connect on given inet port (number/name)
  -M username user account to run under (default "pcp")
  -N buckets  number of historical data buffers maintained
  -T period   time over which samples are considered (default 60 seconds)
  -U units    export observation values using the given units
  -V units    export counter values using the given units
`

func command(name string, cfg *config, stderr io.Writer, errs *int, following []string) *getopt.Command {
	var opts []getopt.Option
	for _, c := range withArg {
		opts = append(opts, getopt.Option{Short: c, Arg: "X"})
	}
	opts = append(opts, getopt.Option{Short: '?'})
	// What PCP's pmdatrace says itself goes out at once; what its
	// libraries say about an option (getopt, -d, -D) goes to pmprintf's
	// buffer, which the usage message's exit never flushes.
	say := func(format string, args ...any) {
		*errs++
		fmt.Fprintf(stderr, "%s: "+format+"\n", append([]any{name}, args...)...)
	}
	return &getopt.Command{
		Name:    name,
		Options: opts,
		POSIX:   true, // libpcp_pmda's pmdaGetOpt
		Handle: func(o getopt.Option, arg string, p *getopt.Parsed) {
			switch o.Short {
			case 'A':
				next := ""
				if len(following) > 0 {
					next, following = following[0], following[1:]
				}
				spec := atrace.AccessFollowing(arg, next)
				if err := atrace.CheckAccess(spec); err != nil {
					say("%v", err)
					return
				}
				cfg.agent.Access = append(cfg.agent.Access, spec)
			case 'D':
				if !getopt.ValidDebug(arg) {
					*errs++
				}
				cfg.daemon.Debug = arg
			case 'd':
				n, end, _ := getopt.CStrtol(arg, 10)
				// PCP's takes any number; one that does not fit a
				// PMID's nine bits is refused here as a bad one is
				if end != len(arg) || int32(n) < 1 || int32(n) >= 511 {
					*errs++
					return
				}
				cfg.daemon.Domain = uint32(n)
			case 'I':
				// a port that is not a whole number is kept as a
				// socket name PCP's agent never uses, the number
				// read so far being its port, cut to 16 bits
				n, _, _ := getopt.CStrtol(arg, 10)
				if v := int32(n); v != -1 {
					cfg.port = int(uint16(v))
				}
			case 'l':
				cfg.daemon.LogFile = arg
			case 'M':
				cfg.daemon.Username = arg
			case 'N':
				n, end, _ := getopt.CStrtol(arg, 10)
				if end != len(arg) || int32(n) < 1 {
					say("-N requires a positive number.")
					return
				}
				cfg.agent.Buckets = int(int32(n))
			case 'T':
				d, err := pmapi.ParseInterval(arg)
				var ie *pmapi.IntervalError
				if errors.As(err, &ie) {
					say("-T requires a time interval: %s", ie.Report())
					return
				} else if err != nil {
					say("-T requires a time interval: %v", err)
					return
				}
				cfg.agent.Period = d
			case 'U', 'V':
				u, err := atrace.ParseUnits(arg)
				if err != nil {
					say("%v", err)
					return
				}
				if o.Short == 'U' {
					cfg.agent.ObserveUnits = u
				} else {
					cfg.agent.CounterUnits = u
				}
			case '?':
				*errs++
			}
		},
	}
}

// accessFollowing is, for each -A in argv in turn, the string that
// follows the argument holding its specification in the process's
// memory (atrace.AccessFollowing): the next argument, else the first of
// env, else argv[0]. The options are scanned as POSIX getopt scans
// them, up to the first operand or "--".
func accessFollowing(argv, env []string) []string {
	after := func(i int) string {
		switch {
		case i+1 < len(argv):
			return argv[i+1]
		case len(env) > 0:
			return env[0]
		}
		return argv[0]
	}
	var out []string
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		if a == "--" || len(a) < 2 || a[0] != '-' {
			break
		}
		for j := 1; j < len(a); j++ {
			if !strings.ContainsRune(withArg, rune(a[j])) {
				continue
			}
			holder := i
			if j == len(a)-1 {
				i++
				holder = i
			}
			if a[j] == 'A' && holder < len(argv) {
				out = append(out, after(holder))
			}
			break
		}
	}
	return out
}

// parseArgs reads pmdatrace's command line (argv[0] the program's path,
// name its name) as PCP's pmdatrace does, env being the environment in
// its order; it says whether to go on, having written any message and
// the usage to stderr otherwise. Operands are ignored, as PCP's.
func parseArgs(name string, argv, env []string, stderr io.Writer) (*config, bool) {
	cfg := newConfig()
	errs := 0
	cmd := command(name, cfg, stderr, &errs, accessFollowing(argv, env))
	p := getopt.Parse(cmd, append([]string{name}, argv[1:]...))
	if errs > 0 || p.Errors > 0 {
		fmt.Fprintf(stderr, usageText, name)
		return nil, false
	}
	return cfg, true
}
