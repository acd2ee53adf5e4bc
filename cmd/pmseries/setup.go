package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/gopcp/gopcp/internal/ownfile"
	"github.com/gopcp/gopcp/series"
	"github.com/gopcp/gopcp/series/resp"
)

// setup is libpcp_web's set-up of the connection as PCP's pmseries
// reports it: each message on standard error as "pmseries: [Level]
// Msg", which makes the exit status 1 (failed) while the run goes on,
// unless the set-up cannot go on (ok false): a server too old, after
// which PCP's pmseries does nothing more (and never ends: ours exits
// 1), or the connection lost, noted as libpcp_web notes its failure to
// send the next command, the run then ending with the status so far.
// With search (the configuration's [pmsearch] enabled) the text index
// is asked for last, whatever the answer passed over in silence.
// A query or report (not load) goes on after the connection was lost
// at the end, on a client that sends nothing more (series.StopWhenLost),
// so its first command is named as not sent.
func setup(ctx context.Context, c resp.Client, search, load bool, stderr io.Writer) (ok, failed bool) {
	err := series.SetupSchema(ctx, c, func(n series.Note) {
		fmt.Fprintf(stderr, "pmseries: [%s] %s\n", n.Level, n.Msg)
		failed = true
	})
	var se *series.SlotsError
	var le *series.LostError
	switch {
	case errors.As(err, &le) && !load:
		// the run's first command, not sent, says so
		return true, failed
	case errors.As(err, &le):
		ownfile.Notify(stderr, "pmseries", "Error", le.Error())
		return false, failed
	case errors.As(err, &se):
		ownfile.Notify(stderr, "pmseries", "Error", se.Msg)
		return false, failed
	case err != nil:
		return false, true
	}
	if search {
		series.SetupSearch(ctx, c)
	}
	return true, failed
}
