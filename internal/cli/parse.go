package cli

import (
	"errors"
	"io"
	"math"
	"os"
	"strings"
	"time"

	"github.com/gopcp/gopcp/derive"
	"github.com/gopcp/gopcp/internal/getopt"
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

// Parsed is the outcome of parsing, PCP's pmOptions after pmGetOptions:
// getopt's (the -D specifications, the operands, the errors and messages)
// and the standard options'.
type Parsed struct {
	getopt.Parsed

	// Stderr, when set, is where the contexts NewSource makes write
	// their warnings (an archive's bad PCP_IGNORE_MARK_RECORDS), for a
	// tool that orders its stdout and stderr; os.Stderr otherwise.
	Stderr io.Writer

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

	guiPortSet bool
	multi      bool
	stderr     io.Writer // see SetStderr

	derived        *derive.Registry
	derivedPending string // derived-metric messages not yet printed
}

// Parse reads argv (argv[0] being the program) as pmGetOptions does,
// after the PCP_* environment variables that stand for standard options
// (PCP_HOST, PCP_ARCHIVE, PCP_TIMEZONE, ...).
func Parse(cmd *Command, argv []string) *Parsed {
	return parse(cmd, argv, environ())
}

func parse(cmd *Command, argv, env []string) *Parsed {
	p := &Parsed{multi: cmd.Multi}
	core := cmd.core(p)
	p.Parsed = getopt.Begin(core, argv, env)
	p.fromEnv(env)
	p.Scan(core, argv)
	if !cmd.DeferEnd {
		p.end()
	}
	return p
}

// core is the command as getopt takes it, its options handed to p: the
// standard ones of this package to standard, the tool's own to Handle.
func (c *Command) core(p *Parsed) *getopt.Command {
	return &getopt.Command{
		Name:        c.Name,
		Usage:       c.Usage,
		Options:     c.Options,
		POSIX:       c.POSIX,
		DebugDirect: c.DebugDirect,
		Handle: func(o Option, arg string, _ *getopt.Parsed) {
			switch {
			case o.Kind >= getopt.KindOther:
				p.standard(o, arg)
			case c.Handle != nil:
				c.Handle(o, arg, p)
			}
		},
	}
}

func (p *Parsed) standard(o Option, arg string) {
	switch o.Kind {
	case stdAlign:
		p.Align, p.AlignSet = arg, true
	case stdArchive:
		p.AddArchive(arg)
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
		t, err := pmns.LoadWith(arg, pmns.Options{NoDuplicates: o.Kind == stdUniqNames})
		if err != nil {
			var pe *pmns.ParseError
			if errors.As(err, &pe) {
				// libpcp prints a PMNS parse error through pmprintf
				// and then flushes, so the messages of the options
				// before this one come out first.
				p.Direct += strings.Join(p.Messages, "") + pe.Report()
				p.Messages = p.Messages[:0]
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
	default:
		// -D, -V and -?, as PCP_DEBUG gives them
		p.Parsed.Standard(o, arg)
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

// IntervalTimeval is -t's interval as pmParseInterval gives it, a
// timeval, for the tools that keep it so (pmstat): rounded to the
// microsecond as pmtimevalFromReal rounds, so that one below half a
// microsecond is none. Zero without -t.
func (p *Parsed) IntervalTimeval() time.Duration {
	if p.IntervalDur <= 0 {
		return 0
	}
	secs, err := pmapi.ParseIntervalSeconds(p.Interval)
	if err != nil || secs >= float64(math.MaxInt64/int64(time.Second)) {
		return p.IntervalDur.Truncate(time.Microsecond)
	}
	return getopt.TimevalFromReal(secs)
}
