package main

import (
	"bufio"
	"fmt"
	"io"
	"math"

	"github.com/gopcp/gopcp/archive"
	"github.com/gopcp/gopcp/internal/cli"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmlogger/logcheck"
)

// contextOptions is pmGetContextOptions for the open archive a: the
// zone of -z or -Z with its note on stdout, then the time window over
// the archive's bounds (with a warning when its end cannot be found). A
// bad window is reported and ends the check.
func contextOptions(p *cli.Parsed, a *archive.Archive, out *bufio.Writer, stderr io.Writer) (logcheck.Window, bool) {
	prog := p.Progname()
	loc, note := p.ArchiveZone(a.Label.Timezone, a.Label.Hostname)
	fmt.Fprint(out, note)
	out.Flush()

	w, endErr := logcheck.DefaultWindow(a)
	if endErr != nil {
		cli.EndWarning(stderr, prog, p.Archives[0], archive.Code(endErr).Error())
	}
	w.Loc = loc
	args := p.WindowArgs()
	if args.Start == nil && args.Finish == nil && args.Align == nil && args.Origin == nil {
		return w, true
	}
	win, _, err := args.Window(w.Start, w.Finish, loc)
	if err != nil {
		fmt.Fprintf(stderr, "%s: invalid time window.\n%s\n", prog, cli.TimeReport(err))
		return w, false
	}
	// pmlogcheck keeps the window in timevals
	w.Start, w.Finish = micro(win.Start), micro(win.End)
	w.FromStart = args.Start != nil || args.Align != nil || args.Origin != nil
	return w, true
}

func micro(t pcp.Timestamp) pcp.Timestamp {
	if t.Sec == math.MaxInt64 {
		return t
	}
	return pcp.Timestamp{Sec: t.Sec, Nsec: t.Nsec / 1000 * 1000}
}
