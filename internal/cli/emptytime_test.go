package cli

import (
	"context"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
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

// TestEmptyWindowOptionsGiven checks that options record an empty
// argument as given, from the command line and the environment.
func TestEmptyWindowOptionsGiven(t *testing.T) {
	cmd := &Command{Name: "tool", Options: []Option{OptStart, OptFinish, OptAlign, OptOrigin, OptArchive}}
	tests := []struct {
		argv, env []string
		want      [4]bool // -S -T -A -O given
		errs      int
	}{
		{argv: []string{"tool", "-a", "x"}},
		{argv: []string{"tool", "-a", "x", "-S", ""}, want: [4]bool{true, false, false, false}},
		{argv: []string{"tool", "-a", "x", "-T", "", "-A", ""}, want: [4]bool{false, true, true, false}},
		{argv: []string{"tool", "-a", "x", "--origin="}, want: [4]bool{false, false, false, true}},
		{argv: []string{"tool", "-a", "x"}, env: []string{"PCP_START_TIME=", "PCP_ORIGIN_TIME="}, want: [4]bool{true, false, false, true}},
		// an empty -S still needs an archive, as any -S does
		{argv: []string{"tool", "-S", ""}, want: [4]bool{true, false, false, false}, errs: 1},
		{argv: []string{"tool", "-T", ""}, want: [4]bool{false, true, false, false}},
	}
	for _, tc := range tests {
		p := ParseEnv(cmd, tc.argv, tc.env)
		a := p.WindowArgs()
		got := [4]bool{a.Start != nil, a.Finish != nil, a.Align != nil, a.Origin != nil}
		if got != tc.want || p.Errors != tc.errs {
			t.Errorf("%q %q: given %v, %d errors %q; want %v, %d errors", tc.argv, tc.env, got, p.Errors, p.Messages, tc.want, tc.errs)
		}
		if p.WindowGiven() != (got != [4]bool{}) {
			t.Errorf("%q %q: WindowGiven %v", tc.argv, tc.env, p.WindowGiven())
		}
	}
}

// liveSource is a metrics source that is not an archive; ContextOptions
// asks nothing else of it here.
type liveSource struct{ pmapi.Source }

// TestLiveWindowStartsAtNow checks that a live source's window starts at
// cli.Now, so that live windows, an empty -T among them, are testable.
func TestLiveWindowStartsAtNow(t *testing.T) {
	saved := Now
	t.Cleanup(func() { Now = saved })
	now := time.Date(2026, 3, 8, 6, 59, 0, 250000000, time.UTC)
	Now = func() time.Time { return now }
	start := pcp.Timestamp{Sec: now.Unix(), Nsec: 250000000}
	midnight := pcp.Timestamp{Sec: time.Date(2026, 3, 8, 0, 0, 0, 0, time.UTC).Unix()}
	tests := []struct {
		argv     []string
		end      pcp.Timestamp
		windowed bool
	}{
		{[]string{"tool", "-h", "x"}, pcp.Timestamp{Sec: MaxTime}, true},
		{[]string{"tool", "-h", "x", "-T", "+10min"}, pcp.Timestamp{Sec: start.Sec + 600, Nsec: 250000000}, true},
		{[]string{"tool", "-h", "x", "-T", ""}, midnight, true},
	}
	cmd := &Command{Name: "tool", Options: []Option{OptHost, OptFinish}}
	for _, tc := range tests {
		p := ParseEnv(cmd, tc.argv, []string{"TZ=UTC"})
		p.Timezone, p.TimezoneSet = "UTC", true
		times := p.ContextOptions(context.Background(), liveSource{}, true)
		if p.Errors > 0 {
			t.Fatalf("%q: %q", tc.argv, p.Messages)
		}
		w := times.Window
		if !times.Windowed || w.Start != start || w.Origin != start || w.End != tc.end {
			t.Errorf("%q: window %+v (windowed %v), want start and origin %v, end %v", tc.argv, w, times.Windowed, start, tc.end)
		}
	}
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
		args := WindowArgs{pick(1, start), pick(2, end), pick(4, align), pick(8, origin)}
		w, _, err := parseWindow(args, first, last, time.UTC, now)
		w2, _, err2 := parseWindow(args, first, last, time.UTC, now)
		if w != w2 || (err == nil) != (err2 == nil) {
			t.Fatalf("two answers: %v %v, %v %v", w, err, w2, err2)
		}
		if err == nil && (w.Start.Compare(first) < 0 || w.End.Compare(last) > 0) {
			t.Errorf("window %v outside [%v, %v]", w, first, last)
		}
	})
}
