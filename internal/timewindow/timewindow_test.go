package timewindow

import (
	"errors"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pcp"
)

func TestParseTimeWindow(t *testing.T) {
	utc := time.UTC
	first := pcp.Timestamp{Sec: 1101358860, Nsec: 500000000} // Thu Nov 25 05:01:00.5 2004
	last := pcp.Timestamp{Sec: 1101362460, Nsec: 250000000}  // an hour later
	open := pcp.Timestamp{Sec: MaxTime}
	now := func() time.Time { return time.Unix(1800000000, 0) }
	at := func(s string) pcp.Timestamp {
		tm, err := time.ParseInLocation("2006-01-02 15:04:05.999999999", s, utc)
		if err != nil {
			t.Fatal(err)
		}
		return pcp.TimestampOf(tm)
	}
	cases := []struct {
		name                         string
		start, end, align, origin    string
		last                         pcp.Timestamp
		wantStart, wantEnd, wantOrig pcp.Timestamp
		err                          string
	}{
		{name: "defaults", last: last, wantStart: first, wantEnd: last, wantOrig: first},
		{name: "offsets", start: "+30", end: "+10min", last: last,
			wantStart: at("2004-11-25 05:01:30.5"), wantEnd: at("2004-11-25 05:11:30.5"), wantOrig: at("2004-11-25 05:01:30.5")},
		{name: "from the end", start: "-10m", end: "-1m", last: last,
			wantStart: at("2004-11-25 05:51:00.25"), wantEnd: at("2004-11-25 06:00:00.25"), wantOrig: at("2004-11-25 05:51:00.25")},
		{name: "clamped", start: "-2h", end: "+3h", last: last, wantStart: first, wantEnd: last, wantOrig: first},
		{name: "ctime", start: "@Thu Nov 25 05:30:00 2004", last: last,
			wantStart: at("2004-11-25 05:30:00"), wantEnd: last, wantOrig: at("2004-11-25 05:30:00")},
		{name: "time of day", start: "@05:20", origin: "@05:25:10.5", last: last,
			wantStart: at("2004-11-25 05:20:00"), wantEnd: last, wantOrig: at("2004-11-25 05:25:10.5")},
		{name: "pm", start: "@5:20am", last: last, wantStart: at("2004-11-25 05:20:00"), wantEnd: last, wantOrig: at("2004-11-25 05:20:00")},
		{name: "align", align: "10min", last: last,
			wantStart: at("2004-11-25 05:10:00"), wantEnd: last, wantOrig: at("2004-11-25 05:10:00")},
		{name: "align origin", align: "15min", origin: "+20min", last: last,
			wantStart: at("2004-11-25 05:15:00"), wantEnd: last, wantOrig: at("2004-11-25 05:45:00")},
		{name: "origin clamped", origin: "+2h", last: last, wantStart: first, wantEnd: last, wantOrig: last},
		{name: "open end", start: "+5", last: open, wantStart: at("2004-11-25 05:01:05.5"),
			wantEnd: pcp.Timestamp{Sec: MaxTime}, wantOrig: at("2004-11-25 05:01:05.5")},
		{name: "bad interval", start: "+5 parsecs", last: last, err: "5 parsecs\n  ^ -- unexpected value\n"},
		{name: "bad date", start: "@Nov 99", last: last, err: "Nov 99\n    ^ -- unexpected value\n"},
		{name: "too little", start: "@Mon 23:", last: last, err: "Mon 23:\n       ^ -- more information expected\n"},
		// free-form dates: from the present (Now, Fri Jan 15 08:00:00 2027),
		// from the end for past relative times, from the start otherwise
		{name: "weekday", start: "@Mon", last: last,
			wantStart: at("2027-01-18 00:00:00"), wantEnd: last, wantOrig: at("2027-01-18 00:00:00")},
		{name: "yesterday", start: "yesterday 10:30", last: open,
			wantStart: at("2027-01-14 10:30:00"), wantEnd: pcp.Timestamp{Sec: MaxTime}, wantOrig: at("2027-01-14 10:30:00")},
		{name: "ago", start: "+1min", end: "30 minutes ago", last: last,
			wantStart: at("2004-11-25 05:02:00.5"), wantEnd: at("2004-11-25 05:31:00"), wantOrig: at("2004-11-25 05:02:00.5")},
		// "next" is 2 in PCP's grammar
		{name: "relative to start", start: "next minute", end: "@25 Nov 2004 05:40 UTC", last: last,
			wantStart: at("2004-11-25 05:03:00"), wantEnd: at("2004-11-25 05:40:00"), wantOrig: at("2004-11-25 05:03:00")},
		{name: "not a date", start: "@next blue moon", last: last, err: "next blue moon\n^ -- unexpected value\n"},
		{name: "zero align", align: "0", last: last, err: "0\n^ -- alignment specified by -A switch could not be applied\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w, _, err := ParseTimeWindowAt(tc.start, tc.end, tc.align, tc.origin, first, tc.last, utc, now)
			if tc.err != "" {
				var te *TimeError
				if !errors.As(err, &te) {
					t.Fatalf("error %v, want a TimeError", err)
				}
				if got := te.Report(); got != tc.err {
					t.Errorf("report %q, want %q", got, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if w.Start != tc.wantStart || w.End != tc.wantEnd || w.Origin != tc.wantOrig {
				t.Errorf("window %v, want %v %v %v", w, tc.wantStart, tc.wantEnd, tc.wantOrig)
			}
		})
	}
}

// FuzzParseTimeWindow checks that no -S -T -A -O arguments make the
// window parser panic, and that a window it accepts lies within the
// bounds it was given.
func FuzzParseTimeWindow(f *testing.F) {
	for _, s := range []string{"", "+30", "-1m", "@Thu Nov 25 05:30:00 2004", "@05:20", "@5pm", "10min", "@Jan", "@12:00:61", "1e308", "@99999", "+-"} {
		f.Add(s, s, s, s)
	}
	first := pcp.Timestamp{Sec: 1101358860}
	last := pcp.Timestamp{Sec: 1101362460}
	f.Fuzz(func(t *testing.T, start, end, align, origin string) {
		w, _, err := ParseTimeWindow(start, end, align, origin, first, last, time.UTC)
		if err != nil {
			return
		}
		if w.Start.Compare(first) < 0 || w.End.Compare(last) > 0 {
			t.Errorf("window %v outside [%v, %v]", w, first, last)
		}
	})
}
