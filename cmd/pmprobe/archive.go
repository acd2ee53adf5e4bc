package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gopcp/gopcp/internal/cli"
	"github.com/gopcp/gopcp/pmapi"
)

// archiveOptions is pmGetContextOptions for an archive: the time zone
// (with its note on stdout) and the window whose origin every fetch
// starts from. It reports whether pmprobe may go on.
func (p *prober) archiveOptions(ctx context.Context, parsed *cli.Parsed, ac *pmapi.ArchiveContext, stderr io.Writer) bool {
	// the zone's note comes before the window is read, so before a bad
	// window's error, as in libpcp
	host, _ := ac.HostName(ctx)
	p.out.WriteString(parsed.TimezoneNote(host))
	times := parsed.ContextOptions(ctx, ac, false)
	if parsed.Errors > 0 {
		p.out.Flush()
		fmt.Fprint(stderr, strings.Join(parsed.Messages, ""))
		return false
	}
	// values print their times in the reporting zone, as libpcp's
	// pmNewZone makes it the process's
	if parsed.HostZone || parsed.TimezoneSet {
		time.Local = times.Zone
	}
	p.archive, p.origin = ac, times.Window.Origin
	return true
}
