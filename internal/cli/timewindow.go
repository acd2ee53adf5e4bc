package cli

import (
	"time"

	"github.com/gopcp/gopcp/internal/timewindow"
	"github.com/gopcp/gopcp/pcp"
)

// The time and time window parsing of the tools' -S -T -A -O is
// internal/timewindow's; these keep cli's names for it, with the present
// read from Now.

// MaxTime is PM_MAX_TIME_T: the end of an open time window.
const MaxTime = timewindow.MaxTime

// TimeError is a time or time window specification libpcp refuses.
type TimeError = timewindow.TimeError

// TimeReport is how libpcp words a time or window it refuses.
func TimeReport(err error) string { return timewindow.Report(err) }

// Window is a time window: where reporting starts and ends and the time
// it begins at.
type Window = timewindow.Window

// Now is the clock read for dates PCP takes from the present rather than
// from the window's bounds ("yesterday", "Mon", "tomorrow 10:30"); tests
// set it to a fixed time.
var Now = time.Now

// ParseTime is timewindow.ParseTime at the present Now.
func ParseTime(spec string, start, end pcp.Timestamp, loc *time.Location) (pcp.Timestamp, error) {
	return timewindow.ParseTimeAt(spec, start, end, loc, Now)
}

// ParseTimeWindow is timewindow.ParseTimeWindow at the present Now.
func ParseTimeWindow(swStart, swEnd, swAlign, swOrigin string, first, last pcp.Timestamp, loc *time.Location) (w Window, warn *TimeError, err error) {
	return timewindow.ParseTimeWindowAt(swStart, swEnd, swAlign, swOrigin, first, last, loc, Now)
}
