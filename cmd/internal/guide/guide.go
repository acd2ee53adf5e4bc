// Package guide is what the Programmer's Guide's two example clients,
// pmclient and pmclient_fg, share: their command line (PCP's standard
// options and -P), the opening of the metrics source with their error
// messages, the report's heading and C's printf forms of their numbers.
package guide

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/gopcp/gopcp/internal/cli"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// Run is one client's run once its source is open: what PCP's clients
// keep in opts and their locals.
type Run struct {
	P      *cli.Parsed
	Prog   string
	Kind   pmapi.Kind
	Src    pmapi.Source
	Host   string
	Zone   *time.Location
	Pause  bool
	Stdout io.Writer
	Stderr io.Writer
	// Interval is -t's, 5 seconds without it; Start the time window's
	// start, where an archive is replayed from.
	Interval time.Duration
	Start    pcp.Timestamp
	// Samples is the number of report lines, -1 for no end (-s 0 too,
	// as the clients read it).
	Samples int
	Sleep   func(time.Duration)
}

// command is the clients' command line: pmclient lists fewer of the
// standard options than it accepts (its getopt string has PCP's whole
// set), pmclient_fg lists them all.
func command(name string, all bool, pause *bool) *cli.Command {
	gui, port := cli.OptGuiMode, cli.OptGuiPort
	var opts []cli.Option
	if all {
		opts = cli.GeneralOptions()
	} else {
		gui.Help, port.Help = "", ""
		opts = []cli.Option{cli.Header("General options"), cli.OptAlign, cli.OptArchive, cli.OptDebug,
			cli.OptHost, cli.OptNamespace, cli.OptOrigin, cli.OptStart, cli.OptSamples, cli.OptFinish,
			cli.OptInterval, cli.OptTimezone, cli.OptHostZone, cli.OptVersion, cli.OptHelp, gui, port}
	}
	opts = append(opts, cli.Header("Reporting options"),
		cli.Option{Long: "pause", Short: 'P', Help: "pause between updates for archive replay"})
	return &cli.Command{Name: name, Usage: "[options]", Options: opts, Handle: func(o cli.Option, _ string, p *cli.Parsed) {
		if o.Short == 'P' {
			*pause = true
			return
		}
		p.Errors++
	}}
}

// Open parses the command line and opens the source (with open, which
// makes the context or the fetchgroup holding it), then settles the
// time zone and window as pmGetContextOptions does. Without a run it
// returns the exit status, the messages printed.
func Open(ctx context.Context, name string, all bool, argv []string, stdout, stderr io.Writer,
	open func(p *cli.Parsed, kind pmapi.Kind, source string) (pmapi.Source, error)) (*Run, int) {
	var pause bool
	cmd := command(name, all, &pause)
	p := cli.Parse(cmd, argv)
	prog := p.Progname()
	if pause && p.Context != cli.ContextArchive {
		p.Errorf("pause can only be used with archives")
	}
	if len(p.Args) > 1 {
		p.Errors++
	}
	if p.Errors > 0 || p.Exit {
		// the clients keep the interval as a timeval, and libpcp names
		// the parser of that form in -t's message
		for i, m := range p.Messages {
			p.Messages[i] = strings.Replace(m, "pmParseHighResInterval(3)", "pmParseInterval(3)", 1)
		}
		fmt.Fprint(stderr, p.Report(cmd))
		if p.Exit {
			return nil, 0
		}
		return nil, 1
	}
	kind, source := pmapi.KindHost, "local:"
	switch p.Context {
	case cli.ContextArchive:
		kind, source = pmapi.KindArchive, p.Archives[0]
	case cli.ContextHost:
		source = p.Hosts[0]
	}
	src, err := open(p, kind, source)
	if err != nil {
		if kind == pmapi.KindHost {
			fmt.Fprintf(stderr, "%s: Cannot connect to PMCD on host \"%s\": %s\n", prog, source, pcp.TextOf(err))
		} else {
			fmt.Fprintf(stderr, "%s: Cannot open archive \"%s\": %s\n", prog, source, pcp.TextOf(err))
		}
		return nil, 1
	}
	host, _ := src.HostName(ctx)
	fmt.Fprint(stdout, p.TimezoneNote(host))
	times := p.ContextOptions(ctx, src, true)
	if p.Errors > 0 {
		fmt.Fprint(stderr, p.Report(cmd))
		src.Close()
		return nil, 1
	}
	r := &Run{P: p, Prog: prog, Kind: kind, Src: src, Host: host, Zone: times.Zone, Pause: pause,
		Stdout: stdout, Stderr: stderr, Interval: 5 * time.Second, Samples: -1, Sleep: time.Sleep}
	if p.IntervalDur > 0 {
		// the clients keep the interval as a timeval
		r.Interval = p.IntervalDur.Truncate(time.Microsecond)
	}
	r.Start = times.Window.Start
	r.Start.Nsec -= r.Start.Nsec % 1000
	if p.SamplesSet && p.Samples > 0 {
		r.Samples = p.Samples
	}
	return r, 0
}

// Replay puts an archive source in interpolation mode from the window's
// start, stepping by the interval in whole milliseconds, as the clients'
// pmSetMode does; other sources are left alone.
func (r *Run) Replay() bool {
	if r.Kind != pmapi.KindArchive {
		return true
	}
	a, ok := r.Src.(interface {
		SetMode(pmapi.Mode, pcp.Timestamp, time.Duration) error
	})
	if !ok {
		return true
	}
	if err := a.SetMode(pmapi.ModeInterp, r.Start, r.Interval.Truncate(time.Millisecond)); err != nil {
		fmt.Fprintf(r.Stderr, "%s: pmSetMode failed: %s\n", r.Prog, pcp.TextOf(err))
		return false
	}
	return true
}

// Heading prints the lines above every fifteen reports: the source, its
// host, the number of CPUs and the time in ctime's form, then the column
// titles (the busiest CPU's only with more than one).
func (r *Run) Heading(ncpu int, stamp pcp.Timestamp) {
	w := r.Stdout
	if r.Kind == pmapi.KindArchive {
		fmt.Fprintf(w, "Archive: %s, ", r.P.Archives[0])
	}
	fmt.Fprintf(w, "Host: %s, %d cpu(s), %s\n", r.Host, ncpu, time.Unix(stamp.Sec, 0).In(r.Zone).Format("Mon Jan _2 15:04:05 2006"))
	busy, util := "", ""
	if ncpu > 1 {
		busy, util = "  Busy    Busy", "   CPU    Util"
	}
	fmt.Fprintf(w, "  CPU%s  Free Mem   Disk     Load Average\n", busy)
	fmt.Fprintf(w, " Util%s  (Mbytes)   IOPS    1 Min  15 Min\n", util)
}

// Wait sleeps for the interval before each report, except while an
// archive is replayed without -P.
func (r *Run) Wait() {
	if r.Kind != pmapi.KindArchive || r.Pause {
		r.Sleep(r.Interval)
	}
}

// F is C's printf("%<width>.<prec>f", v), NaN and infinities as glibc
// prints them ("-nan", "inf").
func F(width, prec int, v float64) string {
	var s string
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		s = "inf"
		if math.IsNaN(v) {
			s = "nan"
		}
		if math.Signbit(v) {
			s = "-" + s
		}
	default:
		s = strconv.FormatFloat(v, 'f', prec, 64)
	}
	return fmt.Sprintf("%*s", width, s)
}
