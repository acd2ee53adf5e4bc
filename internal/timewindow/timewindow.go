package timewindow

import (
	"errors"
	"math"
	"math/big"
	"strconv"
	"time"

	"github.com/gopcp/gopcp/internal/ctime"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// MaxTime is PM_MAX_TIME_T: the end of an open time window.
const MaxTime = math.MaxInt64

// TimeError is a time or time window specification libpcp refuses;
// Report is its message, the specification with a caret under the point
// where reading stopped.
type TimeError struct {
	Spec  string
	Point int
	Msg   string
}

func (e *TimeError) Error() string { return "bad time " + strconv.Quote(e.Spec) + ": " + e.Msg }

// Report is libpcp's two lines for the error, each ending in a newline.
func (e *TimeError) Report() string {
	return (&pmapi.IntervalError{Spec: e.Spec, Point: e.Point, Msg: e.Msg}).Report()
}

// Report is how libpcp words a time that did not parse: a TimeError's
// two lines, any other error's text.
func Report(err error) string {
	var te *TimeError
	if errors.As(err, &te) {
		return te.Report()
	}
	return err.Error()
}

// The offset kinds of a parsed time.
const (
	noOffset = iota
	plusOffset
	negOffset
)

// ctm is libpcp's struct tm while parsing: -1 for fields not given, the
// nanoseconds in yday and the offset kind in wday.
type ctm struct {
	sec, min, hour, mday, mon, year, wday, yday int
}

var (
	wdayCodes  = []string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}
	monthCodes = []string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}
	ampmCodes  = []string{"am", "pm"}
)

type scanner struct {
	s string
	i int
}

func (sc *scanner) skip() {
	for sc.i < len(sc.s) && isSpaceByte(sc.s[sc.i]) {
		sc.i++
	}
}

func isSpaceByte(c byte) bool { return c == ' ' || (c >= '\t' && c <= '\r') }
func isAlphaByte(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }

// code3 reads up to three letters naming one of codes.
func (sc *scanner) code3(codes []string) (int, bool) {
	sc.skip()
	j := sc.i
	if j >= len(sc.s) || !isAlphaByte(sc.s[j]) {
		return 0, false
	}
	var w []byte
	for k := 0; k < 3; k++ {
		w = append(w, sc.s[j]|0x20)
		j++
		if j >= len(sc.s) || !isAlphaByte(sc.s[j]) {
			break
		}
	}
	for n, c := range codes {
		if string(w) == c {
			sc.i = j
			return n, true
		}
	}
	return 0, false
}

func (sc *scanner) char(c byte) bool {
	sc.skip()
	if sc.i < len(sc.s) && sc.s[sc.i] == c {
		sc.i++
		return true
	}
	return false
}

// integer is strtol in base 10 within [lo, hi].
func (sc *scanner) integer(lo, hi int) (int, bool) {
	sc.skip()
	j := sc.i
	if j < len(sc.s) && (sc.s[j] == '+' || sc.s[j] == '-') {
		j++
	}
	k := j
	for k < len(sc.s) && sc.s[k] >= '0' && sc.s[k] <= '9' {
		k++
	}
	if k == j {
		return 0, false
	}
	n, err := strconv.ParseInt(sc.s[sc.i:k], 10, 64)
	if err != nil || n < int64(lo) || n > int64(hi) {
		return 0, false
	}
	sc.i = k
	return int(n), true
}

// real is strtod within [lo, hi].
func (sc *scanner) real(lo, hi float64) (float64, bool) {
	sc.skip()
	j := sc.i
	k := j
	if k < len(sc.s) && (sc.s[k] == '+' || sc.s[k] == '-') {
		k++
	}
	digits := 0
	for k < len(sc.s) && sc.s[k] >= '0' && sc.s[k] <= '9' {
		k++
		digits++
	}
	if k < len(sc.s) && sc.s[k] == '.' {
		k++
		for k < len(sc.s) && sc.s[k] >= '0' && sc.s[k] <= '9' {
			k++
			digits++
		}
	}
	if digits == 0 {
		return 0, false
	}
	if k < len(sc.s) && (sc.s[k] == 'e' || sc.s[k] == 'E') {
		e := k + 1
		if e < len(sc.s) && (sc.s[e] == '+' || sc.s[e] == '-') {
			e++
		}
		if e < len(sc.s) && sc.s[e] >= '0' && sc.s[e] <= '9' {
			for e < len(sc.s) && sc.s[e] >= '0' && sc.s[e] <= '9' {
				e++
			}
			k = e
		}
	}
	d, err := strconv.ParseFloat(sc.s[j:k], 64)
	if err != nil || d < lo || d > hi {
		return 0, false
	}
	sc.i = k
	return d, true
}

// parseCtime is __pmParseCtime: a date in ctime's style with parts left
// out ("Mon Jul 8 22:48:30 2005", "22:48", "Jul 8", "2005").
func parseCtime(spec string) (ctm, error) {
	tm := ctm{-1, -1, -1, -1, -1, -1, noOffset, -1}
	sc := &scanner{s: spec}
	_, wdayOK := sc.code3(wdayCodes)
	if m, ok := sc.code3(monthCodes); ok {
		tm.mon = m
	}
	if n, ok := sc.integer(0, 31); ok {
		tm.mday = n
	}
	if n, ok := sc.integer(0, 23); ok {
		tm.hour = n
	}
	if tm.mday == 0 && tm.hour != -1 {
		tm.mday = -1
	}
	if tm.hour == -1 && tm.mday >= 0 && tm.mday <= 23 && (tm.mon == -1 || (sc.i < len(sc.s) && sc.s[sc.i] == ':')) {
		tm.hour, tm.mday = tm.mday, -1
	}
	if sc.char(':') {
		if tm.hour == -1 {
			tm.hour = 0
		}
		tm.min = 0
		if n, ok := sc.integer(0, 59); ok {
			tm.min = n
		}
		if sc.char(':') {
			if d, ok := sc.real(0, 61); ok {
				tm.sec = int(d)
				tm.yday = int(1e9 * (d - float64(tm.sec)))
			}
		}
	}
	if pm, ok := sc.code3(ampmCodes); ok {
		if tm.hour > 12 || tm.hour == -1 {
			sc.i -= 2
		} else if pm == 1 {
			if tm.hour < 12 {
				tm.hour += 12
			}
		} else if tm.hour == 12 {
			tm.hour = 0
		}
	}
	if n, ok := sc.integer(1900, 9999); ok {
		tm.year = n - 1900
	}
	sc.skip()
	if sc.i < len(sc.s) {
		return tm, &TimeError{Spec: spec, Point: sc.i, Msg: "unexpected value"}
	}
	if (wdayOK && tm.mon == -1 && tm.mday == -1) ||
		(tm.hour != -1 && tm.min == -1 && tm.mday == -1 && tm.mon == -1 && tm.year == -1) {
		return tm, &TimeError{Spec: spec, Point: sc.i, Msg: "more information expected"}
	}
	dflt := tm.year != -1
	if tm.mon != -1 {
		dflt = true
	} else if dflt {
		tm.mon = 0
	}
	if tm.mday != -1 {
		dflt = true
	} else if dflt {
		tm.mday = 1
	}
	if tm.hour != -1 {
		dflt = true
	} else if dflt {
		tm.hour = 0
	}
	if tm.min != -1 {
		dflt = true
	} else if dflt {
		tm.min = 0
	}
	if tm.sec == -1 && dflt {
		tm.sec, tm.yday = 0, 0
	}
	return tm, nil
}

// convertTime is __pmConvertHighResTime: an offset from origin, or an
// absolute time whose missing parts come from origin in mk's zone (the
// next such time at or after it).
func convertTime(tm ctm, origin pcp.Timestamp, mk *mktime) pcp.Timestamp {
	t := origin
	switch tm.wday {
	case plusOffset:
		t.Nsec += int32(tm.yday)
		if t.Nsec > 1e9 {
			t.Nsec -= 1e9
			t.Sec++
		}
		t.Sec += int64(tm.sec)
		return t
	case negOffset:
		if t.Nsec < int32(tm.yday) {
			t.Nsec += 1e9
			t.Sec--
		}
		t.Nsec -= int32(tm.yday)
		t.Sec -= int64(tm.sec)
		return t
	}
	var year, mon, mday, hour, min, sec int
	nsec := t.Nsec
	if tm.year != -1 {
		year, mon, mday, hour, min, sec = tm.year+1900, tm.mon, tm.mday, tm.hour, tm.min, tm.sec
		nsec = int32(tm.yday)
	} else {
		lt := time.Unix(t.Sec, 0).In(mk.Loc)
		year, mon, mday, hour, min, sec = lt.Year(), int(lt.Month())-1, lt.Day(), lt.Hour(), lt.Minute(), lt.Second()
		switch {
		case tm.mon != -1:
			if tm.mon < mon {
				year++
			}
			mon, mday, hour, min, sec = tm.mon, tm.mday, tm.hour, tm.min, tm.sec
			nsec = int32(tm.yday)
		case tm.mday != -1:
			if tm.mday < mday {
				mon++
			}
			mday, hour, min, sec = tm.mday, tm.hour, tm.min, tm.sec
			nsec = int32(tm.yday)
		case tm.hour != -1:
			if tm.hour < hour {
				mday++
			}
			hour, min, sec = tm.hour, tm.min, tm.sec
			nsec = int32(tm.yday)
		case tm.min != -1:
			if tm.min < min {
				hour++
			}
			min, sec = tm.min, tm.sec
			nsec = int32(tm.yday)
		case tm.sec != -1:
			if tm.sec < sec {
				min++
			}
			sec = tm.sec
			nsec = int32(tm.yday)
		}
	}
	return pcp.Timestamp{Sec: mk.at(year, mon, mday, hour, min, sec), Nsec: nsec}
}

// Now is the clock read for dates PCP takes from the present rather than
// from the window's bounds ("yesterday", "Mon", "tomorrow 10:30"); tests
// set it to a fixed time.
var Now = time.Now

// ParseTime is __pmParseHighResTime: "@" and a ctime-style date, "-" and
// an interval before end (when the end is known), or an optional "+" and
// an interval after start; failing those, a free-form date (package
// getdate) with an optional "@", taken from end when it names a past
// relative time ("last week", "2 days ago"), from start when it names
// another relative time ("3 hours", "next month"), or from the present
// (Now) otherwise. Dates are in zone loc. When no form reads the string,
// the error is the first form's.
func ParseTime(spec string, start, end pcp.Timestamp, loc *time.Location) (pcp.Timestamp, error) {
	return ParseTimeAt(spec, start, end, loc, Now)
}

// ParseTimeAt is ParseTime with the present read from now.
func ParseTimeAt(spec string, start, end pcp.Timestamp, loc *time.Location, now func() time.Time) (pcp.Timestamp, error) {
	return parseTime(spec, start, end, &mktime{ctime.Mktime{Loc: loc}}, now)
}

func parseTime(spec string, start, end pcp.Timestamp, mk *mktime, now func() time.Time) (pcp.Timestamp, error) {
	if end.Sec == MaxTime {
		end.Nsec = 999999999
	}
	sc := &scanner{s: spec}
	var err error
	switch {
	case sc.char('@'):
		tm, e := parseCtime(spec[sc.i:])
		if e == nil {
			return convertTime(tm, start, mk), nil
		}
		err = e
	case end.Sec < MaxTime && sc.char('-'):
		t, e := timeInterval(spec[sc.i:])
		if e == nil {
			return convertTime(offset(negOffset, t), end, mk), nil
		}
		err = e
	default:
		sc.char('+')
		t, e := timeInterval(spec[sc.i:])
		if e == nil {
			return convertTime(offset(plusOffset, t), start, mk), nil
		}
		err = e
	}
	sc.char('@')
	if t, ok := freeDate(spec[sc.i:], start, end, mk.Loc, now); ok {
		return t, nil
	}
	return pcp.Timestamp{}, err
}

// interval is a struct timespec as pmParseHighResInterval fills it.
type interval struct{ sec, nsec int64 }

// timeInterval is pmParseHighResInterval: the interval in whole seconds
// and nanoseconds, converted from the sum in seconds as
// pmtimespecFromReal does.
func timeInterval(spec string) (interval, error) {
	d, err := pmapi.ParseIntervalSeconds(spec)
	if err != nil {
		var ie *pmapi.IntervalError
		if errors.As(err, &ie) {
			return interval{}, &TimeError{Spec: ie.Spec, Point: ie.Point, Msg: ie.Msg}
		}
		return interval{}, err
	}
	sec := truncate(d)
	return interval{sec, nanoseconds(d - float64(sec))}, nil
}

// nanoseconds is the fraction of a second frac in nanoseconds, rounded
// as pmtimespecFromReal rounds it: multiplied and offset by a half in
// x87 long double arithmetic (64 bit mantissa), then truncated. In
// float64 the half can round up where libpcp's does not (0.2520041125).
func nanoseconds(frac float64) int64 {
	x := new(big.Float).SetPrec(64).SetFloat64(frac)
	x.Mul(x, big.NewFloat(1e9))
	x.Add(x, big.NewFloat(0.5))
	if x.Cmp(big.NewFloat(1<<63)) >= 0 || x.Cmp(big.NewFloat(-(1<<63))) < 0 {
		return math.MinInt64
	}
	n, _ := x.Int64()
	return n
}

// truncate converts f to an integer as the C conversion does on x86-64:
// toward zero, and the most negative integer when f is out of range.
func truncate(f float64) int64 {
	if !(f > -(1<<63) && f < 1<<63) {
		return math.MinInt64
	}
	return int64(f)
}

// offset is an interval as __pmParseHighResTime hands it on in a struct
// tm: each part in an int, so that intervals past 68 years wrap.
func offset(kind int, t interval) ctm {
	return ctm{wday: kind, sec: int(int32(t.sec)), yday: int(int32(t.nsec))}
}

// Window is a time window: where reporting starts and ends and the time
// it begins at.
type Window struct {
	Start, End, Origin pcp.Timestamp
}

// ParseTimeWindow is pmParseHighResTimeWindow: the -S, -T, -A and -O
// arguments ("" when not given) applied to the bounds first and last
// (last.Sec is MaxTime for an open end), dates read in zone loc. A
// warning (an alignment that could not be applied) leaves the window
// without it and says why in warn.
func ParseTimeWindow(swStart, swEnd, swAlign, swOrigin string, first, last pcp.Timestamp, loc *time.Location) (w Window, warn *TimeError, err error) {
	return ParseTimeWindowAt(swStart, swEnd, swAlign, swOrigin, first, last, loc, Now)
}

// ParseTimeWindowAt is ParseTimeWindow with the present read from now.
func ParseTimeWindowAt(swStart, swEnd, swAlign, swOrigin string, first, last pcp.Timestamp, loc *time.Location, now func() time.Time) (w Window, warn *TimeError, err error) {
	given := func(s string) *string {
		if s == "" {
			return nil
		}
		return &s
	}
	return ParseWindow(Args{given(swStart), given(swEnd), given(swAlign), given(swOrigin)}, first, last, loc, now)
}

// Args are the arguments of -S, -T, -A and -O, each nil when its option
// was not given. An empty argument is given: libpcp reads it as a time
// like any other, a free-form date naming midnight today.
type Args struct {
	Start, Finish, Align, Origin *string
}

// ParseWindow is pmParseHighResTimeWindow with each argument nil when
// its option was not given, the present read from now.
func ParseWindow(args Args, first, last pcp.Timestamp, loc *time.Location, now func() time.Time) (w Window, warn *TimeError, err error) {
	mk := &mktime{ctime.Mktime{Loc: loc}} // one process's mktime state for the window's times
	start, end := first, last
	if end.Sec == MaxTime {
		end.Nsec = 999999999
	}
	if args.Start != nil {
		if start, err = parseTime(*args.Start, start, end, mk, now); err != nil {
			return w, nil, err
		}
	}
	if start.Compare(first) < 0 {
		start = first
	}
	var delta int64
	if args.Align != nil {
		swAlign := *args.Align
		d, err := timeInterval(swAlign)
		if err != nil {
			return w, nil, err
		}
		if d.sec == 0 && d.nsec == 0 {
			return w, nil, &TimeError{Spec: swAlign, Msg: "alignment specified by -A switch could not be applied"}
		}
		delta = d.nsec + 1e9*d.sec
		if delta == 0 {
			// an interval whose nanoseconds wrap to nothing; libpcp
			// would divide by zero
			return w, nil, &TimeError{Spec: swAlign, Msg: "alignment specified by -A switch could not be applied"}
		}
		a := alignUp(start, delta)
		if a.Compare(first) >= 0 && a.Compare(last) <= 0 {
			start = a
		} else {
			warn = &TimeError{Spec: swAlign, Msg: "alignment specified by -A switch could not be applied"}
		}
	}
	if args.Finish != nil {
		if end, err = parseTime(*args.Finish, start, end, mk, now); err != nil {
			return w, nil, err
		}
	}
	if end.Compare(last) > 0 {
		end = last
	}
	origin := start
	if args.Origin != nil {
		if origin, err = parseTime(*args.Origin, start, end, mk, now); err != nil {
			return w, nil, err
		}
		if origin.Compare(start) < 0 {
			origin = start
		} else if origin.Compare(end) > 0 {
			origin = end
		}
		if args.Align != nil {
			swAlign := *args.Align
			b := int64(origin.Nsec) + 1e9*origin.Sec
			bl := (b / delta) * delta
			if bl < b {
				bl += delta
			}
			if bl > int64(end.Nsec)+1e9*end.Sec {
				bl -= delta
			}
			a := pcp.Timestamp{Sec: bl / 1e9, Nsec: int32(bl % 1e9)}
			if a.Compare(start) >= 0 && a.Compare(end) <= 0 {
				origin = a
			} else {
				warn = &TimeError{Spec: swAlign, Msg: "alignment specified by -A switch could not be applied"}
			}
		}
	}
	return Window{Start: start, End: end, Origin: origin}, warn, nil
}

func alignUp(t pcp.Timestamp, delta int64) pcp.Timestamp {
	a := int64(t.Nsec) + 1e9*t.Sec
	b := (a / delta) * delta
	if b < a {
		b += delta
	}
	return pcp.Timestamp{Sec: b / 1e9, Nsec: int32(b % 1e9)}
}
