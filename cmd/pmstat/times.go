package main

import (
	"time"

	"github.com/gopcp/gopcp/internal/cli"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

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
