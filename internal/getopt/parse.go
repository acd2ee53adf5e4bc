package getopt

import (
	"fmt"
	"os"
	"path/filepath"
)

// Command describes a program's command line: its name (argv[0]'s base
// name when empty), the synopsis after it in the usage message, its
// option table and the handler of its own options, which is given the
// option and its argument ("" for options without one) and may report
// errors with Parsed.Errorf.
type Command struct {
	Name    string
	Usage   string
	Options []Option
	Handle  func(o Option, arg string, p *Parsed)
	// POSIX stops option processing at the first operand, as getopt
	// does for tools with PM_OPTFLAG_POSIX (pmstore, whose values may
	// start with a minus sign).
	POSIX bool
	// DebugDirect writes -D's refusal (with OptDebugFlag) straight to
	// stderr, ahead of the messages gathered for the usage report, as
	// dbpmda's fprintf does; pmlogger's goes through pmprintf in turn.
	DebugDirect bool
}

// Parsed is what parsing found: the debug specifications, the operands,
// and the problems in PCP's words.
type Parsed struct {
	Debug []string
	// Args are the operands left after the options.
	Args []string

	// Errors counts the problems found; Messages holds what PCP would
	// print for them (and -V's version line), in order.
	Errors   int
	Messages []string
	// Direct is what libpcp writes to stderr at once rather than through
	// pmprintf (a namespace's parse errors); it comes before Messages.
	Direct string
	// RuntimeErr is set when an error is not a usage mistake (a namespace
	// that cannot be loaded): the usage message is then not shown.
	RuntimeErr bool
	// Exit is set by -V: the tool prints Messages and exits with status 0.
	Exit bool

	name        string
	debugDirect bool
}

// Errorf records an error in PCP's style, "name: message".
func (p *Parsed) Errorf(format string, args ...any) {
	p.Errors++
	p.Messages = append(p.Messages, p.name+": "+fmt.Sprintf(format, args...)+"\n")
}

// Progname is the program's name as messages print it.
func (p *Parsed) Progname() string { return p.name }

// Parse reads argv (argv[0] being the program) as pmgetopt_r does, after
// libpcp's start-up check of $PCP_DEBUG.
func Parse(cmd *Command, argv []string) *Parsed {
	return ParseEnv(cmd, argv, os.Environ())
}

// ParseEnv is Parse with the environment given rather than the process's.
func ParseEnv(cmd *Command, argv, environ []string) *Parsed {
	p := Begin(cmd, argv, environ)
	p.Scan(cmd, argv)
	return &p
}

// Begin is the state parsing starts from: the program's name and what
// libpcp writes as it starts when $PCP_DEBUG is not valid. A parser
// built on this one (internal/cli) applies its own settings from the
// environment between Begin and Scan.
func Begin(cmd *Command, argv, environ []string) Parsed {
	name := cmd.Name
	if name == "" && len(argv) > 0 {
		name = filepath.Base(argv[0])
	}
	p := Parsed{name: name, debugDirect: cmd.DebugDirect}
	if _, w := DebugEnv(environ); w != "" {
		p.Direct += w
	}
	return p
}

// Standard handles the standard options of this package (-D, -V and
// -?), reporting whether o was one of them.
func (p *Parsed) Standard(o Option, arg string) bool {
	switch o.Kind {
	case KindDebug, KindDebugFlag:
		if ValidDebug(arg) {
			p.Debug = append(p.Debug, arg)
			return true
		}
		what := "options"
		if o.Kind == KindDebugFlag {
			what = "flag"
			if p.debugDirect {
				p.Errors++
				p.Direct += fmt.Sprintf("%s: unrecognized debug %s specification (%s)\n", p.name, what, arg)
				return true
			}
		}
		p.Errorf("unrecognized debug %s specification (%s)", what, arg)
	case KindHelp:
		p.Errors++
	case KindVersion:
		p.Exit = true
		p.Messages = append(p.Messages, fmt.Sprintf("%s version %s\n", p.name, Version))
	default:
		return false
	}
	return true
}

// set hands an option found on the command line to its handler.
func (p *Parsed) set(cmd *Command, o Option, arg string) {
	if p.Standard(o, arg) {
		return
	}
	if cmd.Handle != nil {
		cmd.Handle(o, arg, p)
	}
}
