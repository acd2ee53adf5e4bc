package pmval

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
//
// Every line of a replay starts so: the digits are made by hand, not
// through fmt, and what belongs to the second (the zone's conversion
// included) is made once a second, as a short step prints many lines in
// each.
func (v *valuer) stamp(t pcp.Timestamp) {
	if t.Nsec < 0 || t.Nsec >= 1e9 {
		v.damagedStamp(t)
		return
	}
	if !v.stampOK || v.stampSec != t.Sec {
		v.stampSecond(t.Sec)
	}
	b := append(v.stampBuf[:0], v.stampHead...)
	switch v.f.xflag {
	case 0:
		b = appendDigits(b, int64(t.Nsec/1000000), 3)
	case 1:
		b = appendDigits(b, int64(t.Nsec/1000), 6)
	default:
		b = appendDigits(b, int64(t.Nsec), 9)
	}
	if v.f.xflag > 0 {
		b = append(b, ' ')
		b = append(b, v.stampYear...)
	}
	v.out.Write(b)
	v.stampBuf = b
}

// stampSecond makes what stamp prints before the fraction of second
// sec, and after it with -X.
func (v *valuer) stampSecond(sec int64) {
	lt := time.Unix(sec, 0).In(v.times.Zone)
	h := v.stampHead[:0]
	if v.f.xflag > 0 {
		// pmCtime's day, then its year as %4.4s
		ct := lt.AppendFormat(v.num[:0], "Mon Jan _2 15:04:05 2006")
		v.num = ct
		h = append(h, ct[:10]...)
		h = append(h, ' ')
		year := ct[20:]
		if len(year) > 4 {
			year = year[:4]
		}
		v.stampYear = append(append(v.stampYear[:0], "    "[:4-len(year)]...), year...)
	}
	hh, mm, ss := lt.Clock()
	h = appendDigits(h, int64(hh), 2)
	h = append(h, ':')
	h = appendDigits(h, int64(mm), 2)
	h = append(h, ':')
	h = appendDigits(h, int64(ss), 2)
	v.stampHead = append(h, '.')
	v.stampSec, v.stampOK = sec, true
}

// appendDigits appends x (at least 0) in at least n digits, with leading
// zeros, as %0*d.
func appendDigits(b []byte, x int64, n int) []byte {
	var d [20]byte
	i := len(d)
	for x > 0 || i > len(d)-n {
		i--
		d[i] = byte('0' + x%10)
		x /= 10
	}
	return append(b, d[i:]...)
}

// damagedStamp is stamp for a time whose nanoseconds are out of range
// (a damaged archive): they print as they are.
func (v *valuer) damagedStamp(t pcp.Timestamp) {
	lt := time.Unix(t.Sec, 0).In(v.times.Zone)
	if v.f.xflag == 0 {
		fmt.Fprintf(v.out, "%02d:%02d:%02d.%03d", lt.Hour(), lt.Minute(), lt.Second(), t.Nsec/1000000)
		return
	}
	ct := lt.Format("Mon Jan _2 15:04:05 2006")
	frac := fmt.Sprintf("%06d", t.Nsec/1000)
	if v.f.xflag > 1 {
		frac = fmt.Sprintf("%09d", t.Nsec)
	}
	fmt.Fprintf(v.out, "%s %02d:%02d:%02d.%s %4.4s", ct[:10], lt.Hour(), lt.Minute(), lt.Second(), frac, ct[20:])
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
