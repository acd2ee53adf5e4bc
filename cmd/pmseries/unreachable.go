package main

import (
	"io"
	"time"

	"github.com/gopcp/gopcp/internal/ownfile"
	"github.com/gopcp/gopcp/series"
)

// unreachable says, as PCP's pmseries says it, that no Redis answered
// where it looked, and whether err (series.Connect's) was that: a
// connection that could not be made (nothing listening, a host that does
// not resolve), or a server that took it and then answered the first
// command with no reply (garbage, or closing part way). PCP's libpcp_web
// notes either in a pmNotifyErr Info line and the run ends with nothing
// done and status 0. A server that answers nothing at all is given the
// command timeout (resp.Options.Timeout, 60 s, libpcp_web's), where
// PCP's pmseries 6.0.3 waits for ever, and said so in the same line.
// Other failures (a refused password) are not this.
func unreachable(stderr io.Writer, err error, timeout time.Duration) bool {
	why, ok := series.Unreachable(err, timeout)
	if !ok {
		return false
	}
	ownfile.Notify(stderr, "pmseries", "Info", "Cannot connect to Redis: "+why)
	return true
}
