package pcptz

import (
	"testing"
	"time"
)

// FuzzPOSIX feeds any bytes to the POSIX rule reader, as an archive's
// label can carry any time zone text: it must give a location (UTC when
// the rule does not parse) that times can be shown in, and never panic.
func FuzzPOSIX(f *testing.F) {
	for _, s := range []string{"EST-10", "PST8PDT", "AEST-10AEDT,M10.1.0,M4.1.0/3", "EST-10EDT",
		"<+0530>-5:30", "XXX+0", "A1B,J60/2,J300/25", "CET-1CEST,M3.5.0,M10.5.0/3", "", ":", "UTC0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tz string) {
		if tz == "" || tz[0] == ':' {
			return
		}
		l := posix(tz)
		if l == nil {
			t.Fatalf("posix(%q) gave no location", tz)
		}
		for _, sec := range []int64{0, 868000000, 1600000000, 4102444800} {
			_ = time.Unix(sec, 0).In(l).Format(time.RFC3339)
		}
	})
}
