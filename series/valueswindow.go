package series

import (
	"strconv"
	"time"

	"github.com/gopcp/gopcp/internal/timewindow"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// ValuesWindow reads the time window of a values request (pmproxy's
// /series/values) as libpcp_web's initSeriesGetValues does, get giving
// the value of the first of its names present: PCP's names and
// synonyms, times by __pmParseHighResTime (in the server's zone: zone is
// read last and governs none of them), intervals by
// pmParseHighResInterval, counts as unsigned numbers; no parameter at
// all is the latest value.
func ValuesWindow(get func(names ...string) (string, bool)) (*Window, error) {
	// Every parameter is read, in libpcp_web's order; its answer is
	// the last refusal.
	var last error
	w := &Window{}
	given := false
	if v, ok := get("interval", "delta"); ok {
		given = true
		if d, err := pmapi.ParseInterval(v); err != nil {
			last = intervalError("time delta", err)
		} else {
			w.Interval = d
		}
	}
	for _, t := range []struct {
		keys []string
		name string
		dst  *time.Time
	}{{[]string{"align"}, "align", &w.Align}, {[]string{"start", "begin"}, "start", &w.Start}, {[]string{"finish", "end"}, "end", &w.Finish}} {
		v, ok := get(t.keys...)
		if !ok {
			continue
		}
		given = given || t.name != "align"
		if ts, err := valuesTime(v, t.name); err != nil {
			last = err
		} else {
			*t.dst = ts
		}
	}
	if v, ok := get("range"); ok {
		given = true
		if d, err := pmapi.ParseInterval(v); err != nil {
			last = intervalError("range", err)
		} else {
			w.Start, w.Finish, w.Range = time.Now().Add(-d), time.Time{}, v
		}
	}
	for _, c := range []struct {
		keys []string
		name string
		dst  *int
	}{{[]string{"samples", "count"}, "count", &w.Samples}, {[]string{"offset"}, "offset", &w.Offset}} {
		v, ok := get(c.keys...)
		if !ok {
			continue
		}
		given = given || c.name == "count"
		if n, err := strconv.ParseUint(v, 10, 32); err != nil {
			last = &QueryError{Msg: "Invalid sample " + c.name + " requested - " + v}
		} else {
			*c.dst = int(n)
		}
	}
	if v, ok := get("zone"); ok {
		w.Zone = v
	}
	if last != nil {
		return nil, last
	}
	if !given {
		// no window: the latest value, as PCP's pmproxy gives it
		w.Samples = 1
	}
	return w, nil
}

// valuesTime is libpcp_web's parsetime for /series/values: from the
// epoch, with no end.
func valuesTime(v, name string) (time.Time, error) {
	ts, err := timewindow.ParseTime(v, pcp.Timestamp{}, pcp.Timestamp{Sec: timewindow.MaxTime}, time.Local)
	if err != nil {
		msg := timewindow.Report(err)
		return time.Time{}, &QueryError{Msg: "Cannot parse time " + name + " with __pmParseHighResTime:\n" + msg}
	}
	if ts.Sec > 1e15 || ts.Sec < -1e15 {
		return time.Unix(1e15, 0), nil
	}
	return time.Unix(ts.Sec, int64(ts.Nsec)), nil
}
