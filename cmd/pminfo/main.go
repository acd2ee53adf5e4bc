// Command pminfo is PCP's pminfo(1) for live hosts: it lists metric names
// and prints their PMIDs, descriptors, help text, labels, series
// identifiers and values (event records unpacked with -x) as PCP 6.0.3's
// pminfo does, character for character, with its messages and exit codes.
//
// Local contexts (-L, with -K changing the agent table) run gopcp's
// in-process agents (package agents/all) where PCP loads DSO agents.
//
// Archives (-a, with the -S -T -O -A window and -z/-Z) are read through
// pmapi's archive context: values come from the first record at or after
// the window's origin.
//
// Derived metrics (package pmapi/derived) are in every context: PCP's
// default definitions or PCP_DERIVED_CONFIG's, and -c/--derived files.
// Time zone options are accepted and checked but have no effect on a
// live host.
package main

import (
	"bufio"
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
	"github.com/gopcp/gopcp/pmapi/derived"
)

func main() {
	cli.Signals()
	os.Exit(run(context.Background(), os.Args, os.Stdout, os.Stderr))
}

func run(ctx context.Context, argv []string, stdout, stderr io.Writer) int {
	f := &flags{batch: 128}
	cmd := command(f)
	p := cli.Parse(cmd, argv)
	if done, code := p.Done(); done {
		// libpcp's own stderr writes, then what pmprintf gathered
		fmt.Fprint(stderr, p.Report(cmd))
		return code
	}
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	errw := &flushFirst{out: out, w: stderr}
	prog := p.Progname()

	for _, d := range f.derived {
		// -c is pminfo's own option; a bad file is not fatal
		err := p.LoadDerived(d)
		fmt.Fprint(errw, p.DerivedMessages())
		if err != nil {
			fmt.Fprintf(errw, "%s: derived configuration(s) error: %s\n", prog, pcp.TextOf(err))
		}
	}
	if f.batch < 0 {
		fmt.Fprintf(errw, "%s: namelist malloc: Cannot allocate memory\n", prog)
		return 1
	}
	if p.Context != cli.ContextNone {
		f.needContext = true
	}
	if p.Namespace == nil {
		f.needContext = true
	}
	if f.verify {
		f.desc, f.mid, f.fullMid, f.help, f.oneline = false, false, false, false, false
		f.value, f.force, f.label = false, false, false
	}
	r := &reporter{f: f, out: out, errw: errw, prog: prog, batch: f.batch,
		icacheInDom: pcp.InDomNull, labels: newLabelCache()}
	if p.Namespace != nil {
		r.names = derived.NewNames(p.Namespace, p.DerivedRegistry())
		fmt.Fprint(errw, p.DerivedMessages())
	}
	if f.needContext {
		kind := p.Kind()
		source := p.Source("local:")
		r.host = kind == pmapi.KindHost
		c, err := p.NewSource(ctx, kind, source)
		if err != nil {
			var hs *pmapi.HostSpecError
			switch {
			case kind == pmapi.KindLocal:
				fmt.Fprintf(errw, "%s: Cannot make standalone connection on localhost: %s\n", prog, pcp.TextOf(err))
			case kind == pmapi.KindArchive:
				fmt.Fprintf(errw, "%s: Cannot open archive \"%s\": %s\n", prog, source, pcp.TextOf(err))
			default:
				if errors.As(err, &hs) {
					fmt.Fprintf(errw, "pmNewContext: bad host specification\n%s", hs.Report())
				}
				fmt.Fprintf(errw, "%s: Cannot connect to PMCD on host \"%s\": %s\n", prog, source, pcp.TextOf(err))
			}
			return 1
		}
		defer c.Close()
		r.c = p.WithDerived(c, errw)
		r.names = r.c
		if ac, ok := c.(*pmapi.ArchiveContext); ok {
			// one metric a batch, each fetched from the window's
			// origin, so that every metric the archive has is found
			r.archive, r.batch = ac, 1
			if p.Namespace != nil {
				// -n's names, but only those the archive has
				ac.TrimNames()
			}
			// libpcp notes the zone before it reads the time window,
			// so a bad window's error comes after the note
			host, _ := c.HostName(ctx)
			out.WriteString(p.TimezoneNote(host))
			// libpcp's damaged-archive warning goes to the tool's stderr
			p.SetStderr(errw)
			times := p.ContextOptions(ctx, c, false)
			if p.Errors > 0 {
				fmt.Fprint(errw, strings.Join(p.Messages, ""))
				return 1
			}
			r.origin = times.Window.Origin
			// event record times print in the reporting zone, as
			// libpcp's pmNewZone makes it the process's
			if p.HostZone || p.TimezoneSet {
				time.Local = times.Zone
			}
		}
	}
	return r.main(ctx, p.Args)
}

// flushFirst writes to stderr after flushing what stdout holds, so that the
// two interleave on a terminal as PCP's line-buffered output does.
type flushFirst struct {
	out *bufio.Writer
	w   io.Writer
}

func (f *flushFirst) Write(b []byte) (int, error) {
	f.out.Flush()
	return f.w.Write(b)
}
