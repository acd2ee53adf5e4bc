package timewindow

import (
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/pcp"
)

// TestEmptyWindowArgsAgainstLibpcp gives -S, -T, -A and -O empty
// arguments, alone and with others, to libpcp's pmParseHighResTimeWindow
// (the C harness, clock fixed) and to ours: an empty argument is a time
// (midnight today) or, for -A, a refused interval, never "not given".
func TestEmptyWindowArgsAgainstLibpcp(t *testing.T) {
	bin := pcptest.HarnessWith(t, "testdata/harness/timewindow.c", "-O1")
	empty, str := "", func(s string) *string { return &s }
	// -O alone, -S "" -T "+10min", -S "" -T "", -T "" -O "", -A "" -S ...
	argSets := [][4]*string{
		{&empty, nil, nil, nil},
		{nil, &empty, nil, nil},
		{nil, nil, &empty, nil},
		{nil, nil, nil, &empty},
		{&empty, &empty, nil, nil},
		{&empty, str("+10min"), nil, nil},
		{str("@00:20"), &empty, nil, nil},
		{nil, &empty, nil, &empty},
		{&empty, nil, str("1h"), nil},
		{&empty, nil, str("5min"), &empty},
		{str("-30min"), nil, nil, &empty},
		{&empty, &empty, &empty, &empty},
	}
	zones := []string{"UTC", "EST-10", "ABC-0:30", "EST5EDT", "America/New_York", "Australia/Melbourne"}
	nows := []int64{
		1101339000, // Thu Nov 25 00:30 CET 2004: midnight is inside the archive's day
		1800000000, // Fri Jan 15 08:00:00 2027 UTC
		1793511000, // Sun Nov  1 05:30:00 2026 UTC, around America's return to standard time
	}
	archive := [2]pcp.Timestamp{{Sec: 1101340206, Nsec: 248424000}, {Sec: 1101343086, Nsec: 250880000}}
	var cases []windowCase
	for _, args := range argSets {
		for _, zone := range zones {
			for _, now := range nows {
				cases = append(cases,
					windowCase{zone: zone, now: now, first: archive[0], last: archive[1], args: args},
					windowCase{zone: zone, now: now, first: pcp.Timestamp{Sec: now - 86400, Nsec: 5000},
						last: pcp.Timestamp{Sec: MaxTime}, args: args})
			}
		}
	}
	n, accepted, _ := compareWindows(t, bin, cases)
	if accepted == 0 || accepted == n {
		t.Errorf("libpcp accepted %d of %d windows: the cases test nothing", accepted, n)
	}
	t.Logf("%d windows with empty arguments compared, %d accepted by libpcp", n, accepted)
}

// FuzzWindowArgs gives the window parser arguments each given or not
// (given ones possibly empty): no panic, the same answer twice, and an
// accepted window starting no earlier and ending no later than the
// bounds.
func FuzzWindowArgs(f *testing.F) {
	f.Add(uint8(1), "", "", "", "")
	f.Add(uint8(15), "", "", "", "")
	f.Add(uint8(10), "@00:20", "", "1m", "")
	f.Add(uint8(9), "", "+10min", "", "yesterday")
	first := pcp.Timestamp{Sec: 1101358860}
	last := pcp.Timestamp{Sec: 1101362460}
	now := func() time.Time { return time.Unix(1101360000, 0) }
	f.Fuzz(func(t *testing.T, given uint8, start, end, align, origin string) {
		pick := func(bit uint8, s string) *string {
			if given&bit == 0 {
				return nil
			}
			return &s
		}
		args := Args{pick(1, start), pick(2, end), pick(4, align), pick(8, origin)}
		w, _, err := ParseWindow(args, first, last, time.UTC, now)
		w2, _, err2 := ParseWindow(args, first, last, time.UTC, now)
		if w != w2 || (err == nil) != (err2 == nil) {
			t.Fatalf("two answers: %v %v, %v %v", w, err, w2, err2)
		}
		if err == nil && (w.Start.Compare(first) < 0 || w.End.Compare(last) > 0) {
			t.Errorf("window %v outside [%v, %v]", w, first, last)
		}
	})
}
