// Package pmval is PCP's pmval(1) and its other name pmevent (PCP
// installs pmevent as a link to pmval, which names itself after argv[0]
// in its messages and usage): the two commands, cmd/pmval and
// cmd/pmevent, are its Main. It reports the values of one metric
// (all instances, or those -i or the metric specification names) at each
// interval, counters as rates unless -r, from a pmcd, from in-process
// agents (-L, -K) or from archives (-a, interpolated at -t steps over the
// -S/-T/-O/-A window, or -U's records as logged), printing what PCP 6.0.3's pmval prints,
// character for character, with its messages and exit codes. Event
// metrics are unpacked record by record; -x stores a filter value first.
//
// For live sources -T takes an offset from now ("2sec", "+1min").
//
// An archive replayed without -d to anything but a terminal has its lines
// written in blocks rather than one at a time as PCP's pmval writes them
// (what reaches stdout and stderr, and in which order, is the same; a
// live source, -d and a terminal see each sample as it is printed).
// SIGINT, SIGTERM, SIGHUP and the other signals that end PCP's pmval
// (SIGUSR1, SIGALRM, SIGXFSZ, ...: internal/sigfrom) write the finished
// lines waiting before the process ends by the signal, as PCP's has them
// written; SIGKILL (which cannot be caught) loses up to 32 KB of finished
// lines that PCP's would have written.
//
// Not done: -T as an absolute time for live sources, and the GUI time
// control (-g, -p), which is refused.
package pmval

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/gopcp/gopcp/internal/cli"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// Main is the whole program: the signals PCP's pmval dies of, the run
// and its exit status.
func Main() {
	cli.Signals()
	os.Exit(run(context.Background(), os.Args, os.Stdout, os.Stderr))
}

// Run is one run over argv (the program's name first, which names it in
// its messages), as in a process of its own but writing to stdout and
// stderr, returning the exit status.
func Run(ctx context.Context, argv []string, stdout, stderr io.Writer) int {
	return run(ctx, argv, stdout, stderr)
}

// flags are pmval's own options.
type flags struct {
	delay     bool
	fixed     int // -f digits, -1 without
	insts     []string
	instsSet  bool
	raw       bool
	nointerp  bool
	verbose   bool
	cols      int
	filter    string
	filterSet bool
	xflag     int
	nosamples bool
}

func command(f *flags) *cli.Command {
	opts := cli.GeneralOptions()
	opts = append(opts, cli.OptSpecLocal, cli.OptLocalPMDA, cli.OptContainer, cli.OptDerived,
		cli.Header("Reporting options"),
		cli.Option{Long: "delay", Short: 'd', Help: "delay, pause between updates for archive replay"},
		cli.Option{Long: "precision", Short: 'f', Arg: "N", Help: "fixed output format with N digits precision"},
		cli.Option{Long: "instances", Short: 'i', Arg: "INST", Help: "comma-separated metrics instance list"},
		cli.Option{Long: "raw", Short: 'r', Help: "output raw counter values (no rate conversion)"},
		cli.Option{Long: "nointerp", Short: 'U', Arg: "FILE", Help: "non-interpolated fetching; ignores interval"},
		cli.Option{Long: "verbose", Short: 'v', Help: "increase diagnostic output"},
		cli.Option{Long: "width", Short: 'w', Arg: "N", Help: "set the width of each column of output"},
		cli.Option{Long: "filter", Short: 'x', Arg: "VALUE", Help: "store to the metric before fetching (filter)"},
		cli.Option{Long: "timestamp", Short: 'X', Help: "include date and microseconds in reported timestamps"},
	)
	return &cli.Command{
		// no Name: argv[0]'s, pmval or pmevent
		Usage:    "[options] metricname",
		Options:  opts,
		Handle:   f.handle,
		DeferEnd: true,
	}
}

func (f *flags) handle(o cli.Option, arg string, p *cli.Parsed) {
	switch o.Short {
	case 'd':
		f.delay = true
	case 'f':
		n, ok := strictInt(arg)
		f.fixed = n
		if !ok || n < 0 {
			p.Errorf("-f requires +ve numeric argument")
		}
	case 'i':
		f.instsSet = true
		f.insts = append(f.insts, instanceList(arg)...)
	case 'r':
		f.raw = true
	case 'U':
		p.AddArchive(arg) // __pmAddOptArchive, as -a
		f.nointerp = true
	case 'v':
		f.verbose = true
	case 'w':
		n, ok := strictInt(arg)
		f.cols = n
		if !ok || n < 1 {
			p.Errorf("-w requires +ve numeric argument")
		}
	case 'x':
		f.filter, f.filterSet = arg, true
	case 'X':
		f.xflag++
	}
}

// strictInt is strtol over the whole argument, as pmval checks -f and -w.
func strictInt(s string) (int, bool) {
	n, ok := cli.Strtol(s)
	return int(int32(n)), ok
}

// instanceList splits -i's argument as pmval's getinstance does: names
// separated by commas or blanks, each possibly in single or double quotes.
func instanceList(s string) []string {
	var out []string
	sep := func(c byte) bool { return c == ',' || c == ' ' || c == '\t' || c == '\n' }
	i := 0
	for {
		for i < len(s) && sep(s[i]) {
			i++
		}
		if i >= len(s) {
			return out
		}
		if q := s[i]; q == '"' || q == '\'' {
			i++
			start := i
			for i < len(s) && s[i] != q {
				i++
			}
			out = append(out, s[start:i])
			if i < len(s) {
				i++
			}
		} else {
			start := i
			for i < len(s) && !sep(s[i]) {
				i++
			}
			out = append(out, s[start:i])
		}
		if i < len(s) {
			i++ // the character after a name is consumed, as strtok-like scanning does
		}
	}
}

func run(ctx context.Context, argv []string, stdout, stderr io.Writer) int {
	f := &flags{fixed: -1}
	cmd := command(f)
	p := cli.Parse(cmd, argv)
	prog := p.Progname()
	// pmval's -s 0 means no samples at all, not "until stopped"
	f.nosamples = p.SamplesSet && p.Samples == 0
	if p.Exit {
		fmt.Fprint(stderr, p.Report(cmd))
		return 0
	}
	switch {
	case p.Errors == 0 && len(p.Args) == 0:
		p.Errorf("error - no metricname specified")
	case p.Errors == 0 && len(p.Args) > 1:
		p.Errorf("error - too many arguments")
	}
	if p.Errors > 0 {
		fmt.Fprint(stderr, p.Report(cmd))
		return 1
	}

	// the metric specification may name the source
	kind, source := pmapi.KindHost, "local:"
	switch {
	case len(p.Hosts) > 0:
		source = p.Hosts[0]
	case len(p.Archives) > 0:
		kind, source = pmapi.KindArchive, p.Archives[0]
	case p.LocalPMDA:
		kind, source = pmapi.KindLocal, ""
	case p.OriginSet:
		// libpcp's option parsing gives -O alone this host's archives
		// before the metric is read
		kind, source = pmapi.KindArchive, cli.HostArchiveDir()
	}
	spec, err := pmapi.ParseMetricSpec(p.Args[0], kind, source)
	if err != nil {
		var me *pmapi.MetricSpecError
		if errors.As(err, &me) {
			p.Messages = append(p.Messages, me.Report())
		}
		p.Errors++
	} else {
		switch spec.Kind {
		case pmapi.KindArchive:
			if len(p.Archives) == 0 {
				p.Archives = append(p.Archives, spec.Source)
			}
			kind, source = pmapi.KindArchive, spec.Source
		case pmapi.KindLocal:
			p.LocalPMDA = true
			kind, source = pmapi.KindLocal, ""
		default:
			if len(p.Hosts) == 0 {
				p.Hosts = append(p.Hosts, spec.Source)
			}
			source = spec.Source
		}
	}
	p.End()
	if p.Context != cli.ContextArchive && f.delay {
		p.Errorf("delay can only be used with archives")
	} else if p.GuiMode && f.delay {
		p.Errorf("guiflag cannot be used with delay")
	}
	if p.Errors > 0 {
		fmt.Fprint(stderr, p.Report(cmd))
		return 1
	}
	kind = p.Kind()
	var finish time.Duration
	// liveWindowErr is libpcp's error for a live window, reported once
	// the source is open (after the zone's note), as pmGetContextOptions does
	var liveWindowErr string
	if p.Finish != "" && kind != pmapi.KindArchive {
		// a live source starts now; the end may be an offset from it
		d, err := pmapi.ParseInterval(strings.TrimPrefix(p.Finish, "+"))
		if err != nil {
			// a live window runs from now with no end: what libpcp
			// rejects there (an offset back from the end) is its error
			now := pcp.TimestampOf(cli.Now())
			if _, _, werr := cli.ParseTimeWindow("", p.Finish, "", "", now, pcp.Timestamp{Sec: cli.MaxTime}, time.Local); werr != nil {
				liveWindowErr = fmt.Sprintf("%s: invalid time window.\n%s\n", prog, cli.TimeReport(werr))
			} else {
				fmt.Fprintf(stderr, "%s: -T %s: only an offset from now is supported for live sources\n", prog, p.Finish)
				return 1
			}
		}
		finish = d
	}

	// an archive replayed without -d's pacing never waits: its lines
	// may gather (output)
	out := newOutput(stdout, kind == pmapi.KindArchive && !f.delay && blockable(stdout))
	if _, ok := stdout.(*os.File); ok && out.block {
		out.armSignals()
	}
	defer func() {
		out.Flush()
		out.exitCheck()
	}()
	errw := &errWriter{out: out, w: stderr}
	p.Stderr = errw
	src, err := p.NewSource(ctx, kind, source)
	if err != nil {
		switch kind {
		case pmapi.KindArchive:
			fmt.Fprintf(errw, "%s: Cannot open archive \"%s\": %s\n", prog, source, pcp.TextOf(err))
		case pmapi.KindHost:
			var hs *pmapi.HostSpecError
			if errors.As(err, &hs) {
				fmt.Fprintf(errw, "pmNewContext: bad host specification\n%s", hs.Report())
			}
			fmt.Fprintf(errw, "%s: Cannot connect to PMCD on host \"%s\": %s\n", prog, source, pcp.TextOf(err))
		default:
			fmt.Fprintf(errw, "%s: Cannot establish local context: %s\n", prog, pcp.TextOf(err))
		}
		return 1
	}
	defer src.Close()
	host, _ := src.HostName(ctx)
	out.WriteString(p.TimezoneNote(host))
	if liveWindowErr != "" {
		fmt.Fprint(errw, liveWindowErr)
		return 1
	}

	v := &valuer{f: f, p: p, src: p.WithDerived(src, errw), out: out, errw: errw, prog: prog,
		kind: kind, host: host, spec: spec, finish: finish, amode: pmapi.ModeInterp, source: source}
	if ac, ok := src.(*pmapi.ArchiveContext); ok {
		v.archive, v.ac = true, ac
		p.SetStderr(errw)
		v.times = p.ContextOptions(ctx, src, true)
		if p.Errors > 0 {
			fmt.Fprint(errw, strings.Join(p.Messages, ""))
			return 1
		}
	}
	return v.main(ctx)
}

// exitStatus ends the run with a status after its message was written.
type exitStatus int

func (e exitStatus) Error() string { return fmt.Sprintf("exit %d", int(e)) }
