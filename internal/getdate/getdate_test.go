package getdate

import (
	"errors"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	const now = 1800000000 // Fri Jan 15 08:00:00 2027 UTC
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip("no zoneinfo for America/New_York")
	}
	cases := []struct {
		s    string
		loc  *time.Location
		want int64 // 0: ErrSyntax
	}{
		{"", nil, 1799971200}, // midnight today
		{"now", nil, now},
		{"yesterday", nil, 1799884800},
		{"tomorrow 10:30", nil, 1800095400},
		{"10:30 tomorrow", nil, 1800095400},
		{"Fri", nil, 1799971200},         // today counts as the coming Friday
		{"next Monday", nil, 1800835200}, // "next" is 2: the Monday after the coming one
		{"last Monday", nil, 1799625600}, // "last" is -1
		{"2 days ago", nil, 1799827200},  // from now, not midnight
		{"1 month", nil, 1802678400},     // by the calendar
		{"2004-11-25 10:30", nil, 1101378600},
		{"25-Nov-2004 10:30", nil, 1101378600},
		{"Nov 25, 2004 10:30:00", nil, 1101378600},
		{"11/25/04 10:30am", nil, 1101378600},
		{"10:30pm EST", nil, 1800070200},
		{"22:30 -0500", nil, 1800070200},
		{"(a comment) 10:30 p.m. (another) e.s.t.", nil, 1800070200},
		{"1/1/2101", nil, 4134067200}, // a day late: 2100 counted as a leap year
		{"3/1/2100", nil, 4107542400},
		{"Jul 4, 2026 12:00", ny, 1783180800}, // summer time at the date, not now
		{"Jul 4 12:00 2026", ny, 1783180800},  // a number after a date and a time is the year
		{"Jul 4 2026 12:00", ny, 0},           // but here 2026 is a time, 20:26
		{"10 -2 days", nil, 0},                // "10 -2" must go on as a date
		{"Feb 29 2005", nil, 0},
		{"Nov", nil, 0},
		{"10:30 11:30", nil, 0}, // two times
		{"yesterday tomorrow", nil, 0},
		{"13pm", nil, 0},
		{"Dec 31 1969", nil, 0},
		{"blue moon", nil, 0},
		{"yesterday\xe9anything", nil, 1799884800}, // a high byte ends the input
	}
	for _, tc := range cases {
		got, err := Parse(tc.s, now, tc.loc)
		if tc.want == 0 {
			if !errors.Is(err, ErrSyntax) {
				t.Errorf("Parse(%q) = %d, %v; want ErrSyntax", tc.s, got, err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("Parse(%q) = %d, %v; want %d (%s)", tc.s, got, err, tc.want, time.Unix(tc.want, 0).UTC())
		}
	}
}

// FuzzParse checks that no string makes the parser panic or hang, and
// that its answer depends on nothing but its arguments.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"yesterday", "next Monday 10:30pm EST", "2004-11-25", "1 year 2 months ago",
		"(((", "10:30 +0530", "99999999999999999999/1/1", "Jan 31 1 month", "-1 day", "last last last"} {
		f.Add(s, int64(1800000000))
	}
	melbourne, err := time.LoadLocation("Australia/Melbourne")
	if err != nil {
		melbourne = time.UTC
	}
	f.Fuzz(func(t *testing.T, s string, now int64) {
		a, errA := Parse(s, now, melbourne)
		b, errB := Parse(s, now, melbourne)
		if a != b || (errA == nil) != (errB == nil) {
			t.Fatalf("Parse(%q) gave %d, %v then %d, %v", s, a, errA, b, errB)
		}
	})
}
