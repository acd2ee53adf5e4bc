package cli

import (
	"time"

	"github.com/gopcp/gopcp/internal/timewindow"
	"github.com/gopcp/gopcp/pcp"
)

// WindowArgs are the arguments of -S, -T, -A and -O, each nil when its
// option was not given. An empty argument is given: libpcp reads it as
// a time like any other, a free-form date naming midnight today.
type WindowArgs struct {
	Start, Finish, Align, Origin *string
}

// Window is pmParseHighResTimeWindow over the bounds first and last
// (last.Sec is MaxTime for an open end), dates read in zone loc at the
// present Now. A warning (an alignment that could not be applied)
// leaves the window without it and says why in warn.
func (a WindowArgs) Window(first, last pcp.Timestamp, loc *time.Location) (w Window, warn *TimeError, err error) {
	return timewindow.ParseWindow(timewindow.Args(a), first, last, loc, Now)
}

// WindowArgs are the time window options as given, on the command line
// or through PCP_START_TIME and its kin.
func (p *Parsed) WindowArgs() WindowArgs {
	var a WindowArgs
	pick := func(set bool, s string) *string {
		if !set {
			return nil
		}
		return &s
	}
	a.Start = pick(p.StartSet, p.Start)
	a.Finish = pick(p.FinishSet, p.Finish)
	a.Align = pick(p.AlignSet, p.Align)
	a.Origin = pick(p.OriginSet, p.Origin)
	return a
}

// WindowGiven says any of -S, -T, -A and -O was given, even with an
// empty argument.
func (p *Parsed) WindowGiven() bool {
	return p.StartSet || p.FinishSet || p.AlignSet || p.OriginSet
}
