package main

import (
	"time"

	"github.com/gopcp/gopcp/internal/cli"
	"github.com/gopcp/gopcp/pcp"
)

// parseWindow applies -S and -T to the archive's bounds with PCP's time
// syntax, as pmGetContextOptions does; a bad time gives libpcp's message.
// An argument is nil when its option was not given (an empty one is a
// time: midnight today).
func parseWindow(prog string, startArg, finishArg *string, start, finish pcp.Timestamp, loc *time.Location) (pcp.Timestamp, pcp.Timestamp, []string) {
	w, _, err := cli.WindowArgs{Start: startArg, Finish: finishArg}.Window(start, finish, loc)
	if err != nil {
		return start, finish, []string{prog + ": invalid time window.\n" + cli.TimeReport(err) + "\n"}
	}
	return w.Start, w.End, nil
}
