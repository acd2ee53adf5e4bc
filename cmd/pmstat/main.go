// Command pmstat is PCP's pmstat(1): a vmstat-like line per interval of
// load average, memory, swapping, I/O, interrupts, context switches and
// CPU use, from one or several pmcds (-h, repeated, or -H's file) or from
// in-process agents (-L), printing what PCP 6.0.3's pmstat prints. It is
// built on package fetchgroup: one group per source, its values already
// converted to the units and rates the report shows.
//
// Archives (-a, one source each) are sampled by interpolation from the
// time window's origin, as PCP's pmstat does.
package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"time"

	_ "github.com/gopcp/gopcp/agents/all"
	"github.com/gopcp/gopcp/internal/cli"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

func main() {
	cli.Signals()
	os.Exit(run(context.Background(), os.Args, os.Stdout, os.Stderr, sleep))
}

func sleep(d time.Duration) { time.Sleep(d) }

// flags are pmstat's own options.
type flags struct {
	tail  bool // -l
	pause bool // -P
	xcpu  bool // -x
}

// command is pmstat's command line. It is PM_OPTFLAG_MULTI: every -h and
// -a (and PCP_HOST_LIST's and PCP_ARCHIVE_LIST's names) is a source of
// its own, an archive named twice kept once.
func command(f *flags) *cli.Command {
	opts := append(cli.GeneralOptions(),
		cli.Header("Alternate sources"),
		cli.Option{Long: "hostsfile", Short: 'H', Arg: "FILE", Help: "read metric source hosts from a file"},
		cli.OptLocalPMDA,
		cli.Header("Reporting options"),
		// "charcters" is PCP's spelling
		cli.Option{Long: "suffix", Short: 'l', Help: "print last 7 charcters of the host name(s)"},
		cli.Option{Long: "pause", Short: 'P', Help: "pause between updates for archive replay"},
		cli.Option{Long: "xcpu", Short: 'x', Help: "extended CPU statistics reporting"},
	)
	return &cli.Command{Name: "pmstat", Usage: "[options]", Options: opts, Handle: f.handle, Multi: true}
}

func (f *flags) handle(o cli.Option, arg string, p *cli.Parsed) {
	switch o.Short {
	case 'H':
		f.addHostsFile(p, arg)
	case 'l':
		f.tail = true
	case 'P':
		f.pause = true
	case 'x':
		f.xcpu = true
	default:
		p.Errors++
	}
}

// addHostsFile adds the hosts a file names, one per line: the first word
// of each line that is not blank or a comment.
func (f *flags) addHostsFile(p *cli.Parsed, path string) {
	if len(p.Archives) > 0 {
		p.Errorf("only one of hosts or archives allowed")
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		var errno syscall.Errno
		if errors.As(err, &errno) {
			err = pcp.Error(-int32(errno))
		}
		p.Errorf("cannot open hosts file %s: %s", path, pcp.TextOf(err))
		p.RuntimeErr = true
		return
	}
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimLeft(line, " \t\v\f\r")
		if line == "" || line[0] == '#' {
			continue
		}
		if end := strings.IndexAny(line, " \t\v\f\r#"); end >= 0 {
			line = line[:end]
		}
		p.Hosts = append(p.Hosts, line)
	}
}

func run(ctx context.Context, argv []string, stdout, stderr io.Writer, sleep func(time.Duration)) int {
	f := &flags{}
	cmd := command(f)
	p := cli.Parse(cmd, argv)
	prog := p.Progname()
	if len(p.Args) > 0 && !p.Exit {
		p.Errorf("too many options")
	}
	if f.pause && p.Kind() != pmapi.KindArchive {
		p.Errorf("-P can only be used with archives")
	}
	if p.Errors > 0 || p.Exit {
		// pmstat's options keep the interval as a timeval, and libpcp
		// names the parser of that form in -t's message
		for i, m := range p.Messages {
			p.Messages[i] = strings.Replace(m, "pmParseHighResInterval(3)", "pmParseInterval(3)", 1)
		}
		fmt.Fprint(stderr, p.Report(cmd))
		if p.Exit {
			return 0
		}
		return 1
	}
	out := bufio.NewWriter(stdout)
	defer out.Flush()

	r := &reporter{out: out, xcpu: f.xcpu, tail: f.tail, rows: 21, interval: 5 * time.Second, swapOp: 'p'}
	// pmstat keeps -t as a timeval: one that rounds to none leaves the
	// default
	if d := p.IntervalTimeval(); d > 0 {
		r.interval = d
	}
	kind := p.Kind()
	warn := func(format string, args ...any) {
		out.Flush()
		fmt.Fprintf(stderr, format, args...)
	}
	// As in PCP's pmstat, the zone and the time window are settled as
	// soon as one source is made (over every archive's bounds), before
	// the others are tried; a problem there ends the run.
	var times *cli.Times
	add := func(s *stat) bool {
		r.stats = append(r.stats, s)
		if times != nil {
			return true
		}
		// libpcp notes the zone before it reads the time window, so a
		// bad window's error comes after the note
		out.WriteString(p.TimezoneNote(s.hostName(ctx)))
		times = p.ContextOptions(ctx, s.g.Source(), true)
		if p.Errors > 0 {
			warn("%s", strings.Join(p.Messages, ""))
			return false
		}
		return true
	}
	defer func() {
		for _, s := range r.stats {
			s.close()
		}
	}()
	names := p.Hosts
	if kind == pmapi.KindArchive {
		names = p.Archives
	}
	if len(names) > 0 {
		for _, name := range names {
			s, err := r.newStat(ctx, p, kind, name)
			if err != nil {
				warn("%s: %s\n", prog, err)
				continue
			}
			if !add(s) {
				return 1
			}
		}
	} else {
		// Without a source, the local pmcd, else in-process agents;
		// with -L, in-process agents at once.
		var s *stat
		var err error = pcp.ErrNoContext
		if kind != pmapi.KindLocal {
			s, err = r.newStat(ctx, p, kind, "local:")
		}
		if err != nil {
			kind = pmapi.KindLocal
			if s, err = r.newStat(ctx, p, kind, ""); err != nil {
				warn("%s: %s\n", prog, err)
			}
		}
		if s != nil && !add(s) {
			return 1
		}
	}
	if len(r.stats) == 0 {
		warn("%s: No place to get data from!\n", prog)
		return 1
	}
	r.kind = kind
	r.pause = f.pause
	r.loc = times.Zone
	r.rows = terminalRows(r.rows)
	samples := 0 // no end
	if p.SamplesSet {
		samples = p.Samples
	}
	if p.FinishSet {
		samples = windowSamples(times.Window, r.interval, samples)
	}
	if p.GuiMode || p.GuiPort != 0 {
		// PCP's pmstat turns to its time control once its sources and
		// time window are settled.
		out.Flush()
		return cli.TimeControl(p.GuiPort, kind == pmapi.KindArchive, stderr, prog)
	}
	if kind == pmapi.KindArchive {
		if err := r.replay(times.Window.Origin); err != nil {
			warn("%s: pmSetMode: %s\n", prog, pcp.TextOf(err))
			return 1
		}
	}
	return r.report(ctx, samples, sleep)
}
