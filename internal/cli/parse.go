package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/pflag"

	"github.com/gopcp/gopcp/derive"
	"github.com/gopcp/gopcp/internal/pcpconf"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
	"github.com/gopcp/gopcp/pmapi/local"
	"github.com/gopcp/gopcp/pmns"
)

// ContextKind is the kind of metrics source the options select, PCP's
// PM_CONTEXT_* (0 when none was named).
type ContextKind int

// Metrics sources.
const (
	ContextNone ContextKind = iota
	ContextHost
	ContextArchive
	ContextLocal
)

// Command describes a tool's command line: its name (argv[0]'s base name),
// the synopsis after it in the usage message, its option table and the
// handler of its own options, which is given the option and its argument
// ("" for options without one) and may report errors with Parsed.Errorf.
type Command struct {
	Name    string
	Usage   string
	Options []Option
	Handle  func(o Option, arg string, p *Parsed)
	// DeferEnd leaves the checks that need all the options (the context
	// kind, time windows) to the tool's call of End, as PCP's tools with
	// PM_OPTFLAG_DONE do when an operand may name the source: pmval's
	// metric specification, pmdumplog's archive operand (added with
	// AddArchive before End, so the checks see the source).
	DeferEnd bool
	// POSIX stops option processing at the first operand, as getopt
	// does for tools with PM_OPTFLAG_POSIX (pmstore, whose values may
	// start with a minus sign).
	POSIX bool
	// Multi is PM_OPTFLAG_MULTI, for tools with a context per source
	// (pmstat): any number of hosts, and archives kept one name each
	// (a name given twice kept once) rather than joined into one list.
	Multi bool
	// DebugDirect writes -D's refusal (with OptDebugFlag) straight to
	// stderr, ahead of the messages gathered for the usage report, as
	// dbpmda's fprintf does; pmlogger's goes through pmprintf in turn.
	DebugDirect bool
}

// Parsed is the outcome of parsing, PCP's pmOptions after pmGetOptions.
type Parsed struct {
	Context ContextKind
	Hosts   []string
	// Archives holds the archive source: one comma-separated list of
	// every -a (AddArchive), or for tools that keep their own, one name
	// per source.
	Archives  []string
	Container string
	LocalPMDA bool
	SpecLocal []string
	// LocalAgents is the agent table -K specifications changed, nil
	// without them (a local context then reads pmcd.conf).
	LocalAgents *local.Table
	// Namespace is the name space -n or -N loaded, nil without them.
	Namespace *pmns.Tree
	Debug     []string
	// Align, Origin, Start and Finish are the time window options'
	// arguments; the *Set fields say each was given, as an empty
	// argument is a time too (WindowArgs).
	Align     string
	AlignSet  bool
	Origin    string
	OriginSet bool
	Start     string
	StartSet  bool
	Finish    string
	FinishSet bool
	Interval  string
	// IntervalDur is -t's interval, zero without -t.
	IntervalDur time.Duration
	Samples     int
	// SamplesSet says -s was given, telling -s 0 from no -s.
	SamplesSet bool
	Timezone   string
	// TimezoneSet says -Z (or PCP_TIMEZONE) was given: an empty zone is
	// still a zone to libpcp, "TZ=", which is UTC.
	TimezoneSet bool
	HostZone    bool
	GuiMode     bool
	GuiPort     int
	// Derived are the derived metric files --derived named; loading them
	// is the tool's business.
	Derived []string
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
	guiPortSet  bool
	multi       bool
	debugDirect bool
	stderr      io.Writer // see SetStderr

	derived        *derive.Registry
	derivedPending string // derived-metric messages not yet printed
}

// Errorf records an error in PCP's style, "name: message".
func (p *Parsed) Errorf(format string, args ...any) {
	p.Errors++
	p.Messages = append(p.Messages, p.name+": "+fmt.Sprintf(format, args...)+"\n")
}

// Progname is the tool's name as messages print it.
func (p *Parsed) Progname() string { return p.name }

const noArg = "\x00no-argument"

type optValue struct {
	opt Option
	cmd *Command
	p   *Parsed
}

func (v *optValue) String() string { return "" }
func (v *optValue) Type() string   { return "string" }
func (v *optValue) Set(s string) error {
	if v.opt.Arg == "" {
		if s != noArg {
			v.p.Errorf("option '--%s' doesn't allow an argument", v.opt.Long)
			return nil
		}
		s = ""
	}
	if v.opt.std != stdNone {
		v.p.standard(v.opt, s)
	} else if v.cmd.Handle != nil {
		v.cmd.Handle(v.opt, s, v.p)
	}
	return nil
}

// Parse reads argv (argv[0] being the program) as pmGetOptions does,
// after the PCP_* environment variables that stand for standard options
// (PCP_HOST, PCP_ARCHIVE, PCP_TIMEZONE, ...).
func Parse(cmd *Command, argv []string) *Parsed {
	return parse(cmd, argv, environ())
}

func parse(cmd *Command, argv, env []string) *Parsed {
	name := cmd.Name
	if name == "" && len(argv) > 0 {
		name = filepath.Base(argv[0])
	}
	p := &Parsed{name: name, multi: cmd.Multi, debugDirect: cmd.DebugDirect}
	// libpcp checks $PCP_DEBUG as it starts, before pmGetOptions reads
	// it again as -D
	if _, w := DebugEnv(env); w != "" {
		p.Direct += w
	}
	p.fromEnv(env)
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.SortFlags = false
	for _, o := range cmd.Options {
		if o.header {
			continue
		}
		short := ""
		if o.Short != 0 {
			short = string(o.Short)
		}
		long := o.Long
		if long == "" {
			long = "\x00" + short
		}
		f := fs.VarPF(&optValue{opt: o, cmd: cmd, p: p}, long, short, o.Help)
		if o.Arg == "" {
			f.NoOptDefVal = noArg
		}
	}
	var args []string
	if len(argv) > 1 {
		args = argv[1:]
	}
	p.Args = p.scan(cmd, fs, args)
	if !cmd.DeferEnd {
		p.end()
	}
	return p
}

func (p *Parsed) parseError(err error) {
	var ne *pflag.NotExistError
	var re *pflag.ValueRequiredError
	var se *pflag.InvalidSyntaxError
	switch {
	case errors.As(err, &ne):
		if ne.GetSpecifiedShortnames() != "" {
			p.Errorf("invalid option -- '%s'", ne.GetSpecifiedName()[:1])
		} else {
			p.Errorf("unrecognized option '--%s'", ne.GetSpecifiedName())
		}
	case errors.As(err, &re):
		if re.GetSpecifiedShortnames() != "" {
			p.Errorf("option requires an argument -- '%s'", re.GetSpecifiedName()[:1])
		} else {
			p.Errorf("option '--%s' requires an argument", re.GetSpecifiedName())
		}
	case errors.As(err, &se):
		p.Errorf("unrecognized option '%s'", se.GetSpecifiedFlag())
	default:
		p.Errorf("%v", err)
	}
}

func (p *Parsed) standard(o Option, arg string) {
	switch o.std {
	case stdAlign:
		p.Align, p.AlignSet = arg, true
	case stdArchive:
		p.AddArchive(arg)
	case stdDebug, stdDebugFlag:
		if !validDebug(arg) {
			what := "options"
			if o.std == stdDebugFlag {
				what = "flag"
			}
			if o.std == stdDebugFlag && p.debugDirect {
				p.Errors++
				p.Direct += fmt.Sprintf("%s: unrecognized debug %s specification (%s)\n", p.name, what, arg)
				return
			}
			p.Errorf("unrecognized debug %s specification (%s)", what, arg)
			return
		}
		p.Debug = append(p.Debug, arg)
	case stdHost:
		switch {
		case len(p.Hosts) > 0 && !p.multi:
			p.Errorf("too many hosts requested: %s", arg)
		case len(p.Archives) > 0:
			p.Errorf("only one host or archive allowed")
		default:
			p.Hosts = append(p.Hosts, arg)
		}
	case stdContainer:
		p.Container = arg
	case stdLocalPMDA:
		if p.Context != ContextNone {
			p.Errorf("at most one of -a, -h and -L allowed")
		} else {
			p.LocalPMDA = true
		}
	case stdSpecLocal:
		p.SpecLocal = append(p.SpecLocal, arg)
		if p.LocalAgents == nil {
			p.LocalAgents = local.NewTable()
		}
		if err := p.LocalAgents.Spec(arg); err != nil {
			p.Errorf("pmSpecLocalPMDA failed: %s", err.Error())
		}
	case stdNamespace, stdUniqNames:
		if p.Namespace != nil {
			// libpcp loads a name space once per process
			p.Errorf("Cannot load namespace from \"%s\": %s", arg, pcp.TextOf(pcp.ErrDupPMNS))
			p.RuntimeErr = true
			return
		}
		t, err := pmns.LoadWith(arg, pmns.Options{NoDuplicates: o.std == stdUniqNames})
		if err != nil {
			var pe *pmns.ParseError
			if errors.As(err, &pe) {
				p.Direct += pe.Report()
			}
			p.Errorf("Cannot load namespace from \"%s\": %s", arg, pcp.TextOf(err))
			p.RuntimeErr = true
			return
		}
		p.Namespace = t
	case stdOrigin:
		p.Origin, p.OriginSet = arg, true
	case stdStart:
		p.Start, p.StartSet = arg, true
	case stdSamples:
		p.SamplesSet = true
		n, ok := Strtol(arg)
		p.Samples = int(int32(n))
		if !ok || p.Samples < 0 {
			p.Errorf("-s requires a positive numeric argument")
		}
	case stdFinish:
		p.Finish, p.FinishSet = arg, true
	case stdInterval:
		p.Interval = arg
		d, err := pmapi.ParseInterval(arg)
		if err != nil {
			var ie *pmapi.IntervalError
			errors.As(err, &ie)
			p.Errorf("-t argument not in pmParseHighResInterval(3) format:")
			p.Messages = append(p.Messages, ie.Report()+"\n")
			return
		}
		p.IntervalDur = d
	case stdTimezone:
		if p.HostZone {
			p.Errorf("at most one of -Z and -z allowed")
		} else {
			p.Timezone, p.TimezoneSet = arg, true
		}
	case stdHostZone:
		if p.TimezoneSet {
			p.Errorf("at most one of -Z and -z allowed")
		} else {
			p.HostZone = true
		}
	case stdVersion:
		p.Exit = true
		p.Messages = append(p.Messages, fmt.Sprintf("%s version %s\n", p.name, Version))
	case stdHelp:
		p.Errors++
	case stdGuiMode:
		if p.GuiPort != 0 || p.guiPortSet {
			p.Errorf("at most one of -g and -p allowed")
		} else {
			p.GuiMode = true
		}
	case stdGuiPort:
		if p.GuiMode {
			p.Errorf("at most one of -g and -p allowed")
			return
		}
		p.guiPortSet = true
		n, ok := Strtol(arg)
		if p.GuiPort = int(int32(n)); !ok || p.GuiPort < 0 {
			p.GuiPort = 0
		}
	case stdDerived:
		// libpcp loads the definitions at once
		if err := p.LoadDerived(arg); err != nil {
			p.Errorf("pmLoadDerivedConfig failed: %s", pcp.TextOf(err))
			return
		}
		p.Derived = append(p.Derived, arg)
	}
}

// End is __pmEndOptions for a command with DeferEnd: the context the
// options chose and the checks that need all of them.
func (p *Parsed) End() { p.end() }

// end is __pmEndOptions: the context the options chose and the checks
// that need all of them.
func (p *Parsed) end() {
	switch {
	case p.LocalPMDA:
		p.Context = ContextLocal
	case len(p.Hosts) > 0 && len(p.Archives) == 0:
		p.Context = ContextHost
	case len(p.Archives) > 0 && len(p.Hosts) == 0:
		p.Context = ContextArchive
	case p.OriginSet:
		// an origin with no source means this host's own archives
		p.Context = ContextArchive
		p.AddArchive(HostArchiveDir())
	}
	if (p.StartSet || p.AlignSet || p.OriginSet) && p.Context != ContextArchive {
		p.Errorf("time window options are supported for archives only")
	}
	if p.HostZone && p.Context != ContextArchive && p.Context != ContextHost {
		p.Errorf("use of timezone from metric source requires a source")
	}
}

// HostArchiveDir is where pmlogger keeps this host's archives,
// $PCP_ARCHIVE_DIR/hostname, the source libpcp picks for -O alone.
func HostArchiveDir() string {
	dir, ok := pcpconf.Get("PCP_ARCHIVE_DIR")
	if !ok {
		dir = "/var/log/pcp/pmlogger"
	}
	host, err := os.Hostname()
	if err != nil {
		host = "localhost"
	}
	return dir + "/" + host
}

// Hosts0 is the first host the options named, else def.
func (p *Parsed) Hosts0(def string) string {
	if len(p.Hosts) > 0 {
		return p.Hosts[0]
	}
	return def
}
