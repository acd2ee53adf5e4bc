package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/gopcp/gopcp/internal/pcptz"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// Times is what pmGetContextOptions settles once a context exists: the
// reporting time zone and the time window.
type Times struct {
	// Zone is the zone times are reported in: -Z's, the source's with
	// -z, else the local one.
	Zone *time.Location
	// Window is the time window; for a live source it starts now and has
	// no end (End.Sec is MaxTime).
	Window Window
	// Windowed says a window was computed (window options given, or
	// asked for by the tool).
	Windowed bool
}

// zoner is a source that knows its time zone.
type zoner interface {
	TimeZone(ctx context.Context) (string, error)
}

// ContextOptions is pmGetContextOptions: with -z the source's time zone,
// with -Z the one named, and the time window from -S -T -A -O over the
// archive's bounds when any was given or boundaries asks for it. Problems
// are recorded as PCP words them (p.Errors, p.Messages, p.RuntimeErr);
// messages libpcp writes straight to stderr go to stderr.
func (p *Parsed) ContextOptions(ctx context.Context, src pmapi.Source, boundaries bool) *Times {
	t := &Times{Zone: pcptz.Local(os.LookupEnv("TZ"))}
	switch {
	case p.HostZone:
		if z, ok := src.(zoner); ok {
			tz, err := z.TimeZone(ctx)
			if err != nil {
				p.Errorf("Cannot set context timezone: %s", pcp.TextOf(err))
			} else {
				t.Zone = pcptz.Load(tz)
			}
		}
	case p.TimezoneSet:
		t.Zone = pcptz.Load(p.Timezone)
	}
	if p.Errors == 0 && (p.WindowGiven() || boundaries) {
		first, last, ok := p.bounds(ctx, src)
		if ok {
			w, _, err := p.WindowArgs().Window(first, last, t.Zone)
			if err != nil {
				p.Errorf("invalid time window.\n%s", TimeReport(err))
			} else {
				t.Window, t.Windowed = w, true
			}
		}
	}
	if p.Errors > 0 {
		p.RuntimeErr = true
	}
	return t
}

// ArchiveZone settles -z and -Z for a tool that reads an archive's label
// itself rather than through a context (pmdumplog, pmlogcheck): the zone
// its times are reported in (zone, the label's, with -z; -Z's; else the
// local one) and the note it prints on stdout for either option, host
// being the label's host name.
func (p *Parsed) ArchiveZone(zone, host string) (*time.Location, string) {
	loc := pcptz.Local(os.LookupEnv("TZ"))
	switch {
	case p.HostZone:
		loc = pcptz.Load(zone)
	case p.TimezoneSet:
		loc = pcptz.Load(p.Timezone)
	}
	return loc, p.TimezoneNote(host)
}

// bounds is __pmBoundaryOptions for one context: an archive's label start
// and end, or now and no end for a live source. With several archive
// contexts (a Multi tool given several archives) every archive is opened
// again by name and the bounds run from the earliest start to the latest
// end; one that cannot be opened is an error.
func (p *Parsed) bounds(ctx context.Context, src pmapi.Source) (first, last pcp.Timestamp, ok bool) {
	a, isArchive := src.(*pmapi.ArchiveContext)
	if !isArchive {
		return pcp.TimestampOf(Now()), pcp.Timestamp{Sec: MaxTime}, true
	}
	if !p.multi || len(p.Archives) < 2 {
		first, last = p.archiveBounds(a, p.Archives[0])
		return first, last, true
	}
	for i, name := range p.Archives {
		c, err := pmapi.NewArchiveContext(ctx, name)
		if err != nil {
			p.Errorf("Cannot open archive %s: %s", name, pcp.TextOf(err))
			return first, last, false
		}
		start, end := p.archiveBounds(c, name)
		c.Close()
		if i == 0 || start.Compare(first) < 0 {
			first = start
		}
		if i == 0 || end.Compare(last) > 0 {
			last = end
		}
	}
	return first, last, true
}

// archiveBounds is __pmUpdateBounds: an archive's start and end, its end
// open (with libpcp's warning on stderr) when it cannot be found.
func (p *Parsed) archiveBounds(a *pmapi.ArchiveContext, name string) (first, last pcp.Timestamp) {
	first = a.Start()
	end, err := a.End()
	if err != nil {
		end = pcp.Timestamp{Sec: MaxTime}
		EndWarning(p.stderrOut(), p.Progname(), name, pcp.TextOf(err))
	}
	return first, end
}

// EndWarning writes libpcp's warning for an archive whose end cannot be
// found (__pmUpdateBounds), reason being the error's text.
func EndWarning(w io.Writer, prog, name, reason string) {
	fmt.Fprintf(w, "%s: Cannot locate end of archive %s: %s\n", prog, name, reason)
	fmt.Fprintf(w, "\nWARNING: This archive is sufficiently damaged that it may not be possible to\n")
	fmt.Fprintf(w, "         produce complete information.  Continuing and hoping for the best.\n\n")
}
