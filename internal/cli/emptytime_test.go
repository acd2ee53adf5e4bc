package cli

import (
	"context"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

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
