package main

import (
	"context"
	"fmt"
	"time"

	"github.com/gopcp/gopcp/internal/cli"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// archiveSetup is what pmval does for an archive once the metric is
// known: the sample count from the time window and the archive's mode,
// interpolating at -t steps from the window's origin unless -U or an
// event metric asks for the records themselves.
func (v *valuer) archiveSetup() error {
	if v.events || v.f.nointerp {
		v.amode = pmapi.ModeForw
		v.rawArchive = true
	}
	if v.times.Window.End.Sec == 0 {
		// pmval takes an end in the epoch's first second for no end (a
		// damaged archive of that time whose last record is its first)
		v.times.Window.End.Sec = cli.MaxTime
	}
	w := v.times.Window
	if v.samples < 0 && w.End.Sec != cli.MaxTime && v.amode != pmapi.ModeForw {
		n := int(int32((stampReal(w.End) - stampReal(w.Origin)) / v.p.IntervalDur.Seconds()))
		if n < 0 {
			n = 0
		} else {
			n++
		}
		v.samples = n
	}
	// the time control hands pmSetMode a timeval and a step in msec
	origin := pcp.Timestamp{Sec: w.Origin.Sec, Nsec: w.Origin.Nsec / 1000 * 1000}
	iv := v.p.IntervalDur
	usec := (iv % time.Second) / time.Microsecond
	var step time.Duration
	if iv/time.Second > 2073600 {
		step = iv / time.Second * time.Second
	} else {
		step = time.Duration(int64(float64(iv/time.Second)*1e3+float64(usec)/1e3)) * time.Millisecond
	}
	if err := v.ac.SetMode(v.amode, origin, step); err != nil {
		return v.fatal("%s: pmSetMode: %s\n", v.prog, pcp.TextOf(err))
	}
	return nil
}

// stamp is pmval's mytimestamp: the time of a value in the reporting
// zone, with the date and microseconds (-X) or nanoseconds (-XX).
func (v *valuer) stamp(t pcp.Timestamp) {
	lt := time.Unix(t.Sec, 0).In(v.times.Zone)
	switch {
	case v.f.xflag == 0 && (t.Nsec < 0 || t.Nsec >= 1e9):
		// a damaged stamp's nanoseconds print as they are
		fmt.Fprintf(v.out, "%02d:%02d:%02d.%03d", lt.Hour(), lt.Minute(), lt.Second(), t.Nsec/1000000)
	case v.f.xflag == 0:
		// every line starts so: digits by hand, not through fmt
		hh, mm, ss := lt.Clock()
		ms := int(t.Nsec / 1000000)
		// built in the valuer's own array: a local one passed to the
		// writer (an interface) escaped, an allocation per line
		v.stampBuf = [12]byte{
			byte('0' + hh/10), byte('0' + hh%10), ':',
			byte('0' + mm/10), byte('0' + mm%10), ':',
			byte('0' + ss/10), byte('0' + ss%10), '.',
			byte('0' + ms/100), byte('0' + ms/10%10), byte('0' + ms%10),
		}
		v.out.Write(v.stampBuf[:])
	default:
		ct := lt.Format("Mon Jan _2 15:04:05 2006")
		frac := fmt.Sprintf("%06d", t.Nsec/1000)
		if v.f.xflag > 1 {
			frac = fmt.Sprintf("%09d", t.Nsec)
		}
		fmt.Fprintf(v.out, "%s %02d:%02d:%02d.%s %4.4s", ct[:10], lt.Hour(), lt.Minute(), lt.Second(), frac, ct[20:])
	}
}

// ctime is pmCtime in the reporting zone.
func (v *valuer) ctime(sec int64) string {
	return time.Unix(sec, 0).In(v.times.Zone).Format("Mon Jan _2 15:04:05 2006") + "\n"
}

// fetchRaw is -U's fetch: records until one holds the metric, a <mark>
// saying logging was suspended.
func (v *valuer) fetchRaw(ctx context.Context, r *pcp.Result) (int, error) {
	for {
		if err := v.ac.FetchArchive(ctx, r); err != nil {
			return -1, err
		}
		if len(r.Sets) == 0 {
			v.stamp(r.Timestamp)
			v.out.WriteString("  Archive logging suspended\n")
			v.reporting = false
			return -1, nil
		}
		for i := range r.Sets {
			if r.Sets[i].PMID == v.pmid {
				return i, nil
			}
		}
	}
}
