package pcptz

import (
	"os"
	"runtime"
	"testing"
	"time"
)

func TestRules(t *testing.T) {
	at := func(s string) time.Time {
		x, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	cases := []struct {
		tz   string
		when string
		want string
	}{
		{"EST-10", "2020-01-01T00:00:00Z", "10:00 EST"},
		{"PST8PDT", "2020-07-01T12:00:00Z", "05:00 PDT"},
		{"PST8PDT", "2020-01-01T12:00:00Z", "04:00 PST"},
		{"AEST-10AEDT,M10.1.0,M4.1.0/3", "2020-01-01T00:00:00Z", "11:00 AEDT"},
		{"AEST-10AEDT,M10.1.0,M4.1.0/3", "2020-07-01T00:00:00Z", "10:00 AEST"},
		{"EST-10EDT", "2020-07-01T00:00:00Z", "11:00 EDT"},
		// Without dates glibc takes posixrules' history, its transitions
		// moved by the offsets' difference, as these were found with
		// TZ=EST-10EDT date(1).
		{"EST-10EDT", "1997-10-26T16:59:00Z", "03:59 EDT"},
		{"EST-10EDT", "1997-10-26T17:01:00Z", "03:01 EST"},
		{"EST-10EDT", "1997-04-06T21:59:00Z", "07:59 EST"},
		{"EST-10EDT", "1997-04-06T22:01:00Z", "09:01 EDT"},
		{"EST-10EDT-12", "1997-10-26T17:59:00Z", "05:59 EDT"},
		{"EST-10EDT-12", "1997-10-26T18:01:00Z", "04:01 EST"},
		{"XST3XDT", "1997-10-26T03:59:00Z", "01:59 XDT"},
		{"XST3XDT", "1997-10-26T04:01:00Z", "01:01 XST"},
		{"EST-10EDT", "1997-10-28T00:53:20Z", "10:53 EST"},
		// and after the file's last transition its footer rule.
		{"EST-10EDT", "2041-01-01T00:00:00Z", "19:00 EST"},
		{":Australia/Melbourne", "2020-07-01T00:00:00Z", "10:00 AEST"},
		{"UTC", "2020-07-01T00:00:00Z", "00:00 UTC"},
		{"GMT", "2020-07-01T00:00:00Z", "00:00 GMT"},
		{"garbage!", "2020-07-01T00:00:00Z", "00:00 UTC"},
	}
	for _, c := range cases {
		got := at(c.when).In(Load(c.tz)).Format("15:04 MST")
		if got != c.want {
			t.Errorf("%q at %s: got %s, want %s", c.tz, c.when, got, c.want)
		}
	}
}

// TestEndlessZoneFile: a TZ naming a file with no end that is not a zone
// file is turned away by its first bytes and taken as a zone that cannot
// be read, as a missing file is, instead of growing
// memory until the process dies.
func TestEndlessZoneFile(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	missing := resolve("/nonexistent/zone/file")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got := resolve("/dev/zero")
	runtime.ReadMemStats(&after)
	at := time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)
	if g, w := at.In(got).Format(time.RFC3339), at.In(missing).Format(time.RFC3339); g != w {
		t.Errorf("TZ=/dev/zero reads %s, a missing zone file %s", g, w)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("TZ=/dev/zero allocated %d bytes, want at most 1 MiB", grew)
	}
}
