package main

import (
	"context"
	"time"

	"github.com/gopcp/gopcp/internal/cli"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// setupTimes is what pmstat asks of pmGetContextOptions on its first
// source: the reporting zone and the time window, whose bounds span every
// archive when there are several (libpcp opens each to find the earliest
// start and the latest end).
func setupTimes(ctx context.Context, p *cli.Parsed, stats []*stat) *cli.Times {
	t := p.ContextOptions(ctx, stats[0].g.Source(), true)
	if p.Errors > 0 || len(stats) < 2 || p.Kind() != pmapi.KindArchive {
		return t
	}
	var first, last pcp.Timestamp
	for i, s := range stats {
		a, ok := s.g.Source().(*pmapi.ArchiveContext)
		if !ok {
			return t
		}
		start := a.Start()
		end, err := a.End()
		if err != nil {
			end = pcp.Timestamp{Sec: cli.MaxTime}
		}
		if i == 0 || start.Sub(first) < 0 {
			first = start
		}
		if i == 0 || end.Sub(last) > 0 {
			last = end
		}
	}
	w, _, err := cli.ParseTimeWindow(p.Start, p.Finish, p.Align, p.Origin, first, last, t.Zone)
	if err != nil {
		msg := err.Error()
		if te, ok := err.(*cli.TimeError); ok {
			msg = te.Report()
		}
		p.Errorf("invalid time window.\n%s", msg)
		return t
	}
	t.Window = w
	return t
}

// windowSamples is the number of samples an end time (-T) asks for: the
// window from the origin to the end in intervals, when that is more than
// -s's. pmstat keeps the interval in seconds as a float.
func windowSamples(w cli.Window, interval time.Duration, samples int) int {
	period := float32(float64(interval.Microseconds()) / 1e6)
	win := float64(w.End.Sec-w.Origin.Sec) + float64(w.End.Nsec/1000-w.Origin.Nsec/1000)/1e6
	win /= float64(period)
	if win > float64(samples) {
		return int(win)
	}
	return samples
}

// replay puts every archive in interpolation mode at the window's origin,
// stepping by the interval: pmstat samples archives, it does not read
// their records one by one. The origin is kept to the microsecond and the
// step to the millisecond, as pmstat hands them to pmSetMode.
func (r *reporter) replay(origin pcp.Timestamp) error {
	origin.Nsec -= origin.Nsec % 1000
	step := r.interval.Truncate(time.Millisecond)
	for _, s := range r.stats {
		a, ok := s.g.Source().(interface {
			SetMode(pmapi.Mode, pcp.Timestamp, time.Duration) error
		})
		if !ok {
			continue
		}
		if err := a.SetMode(pmapi.ModeInterp, origin, step); err != nil {
			return err
		}
	}
	return nil
}
