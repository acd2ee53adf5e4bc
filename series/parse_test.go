package series

import (
	"strings"
	"testing"
)

func TestFilterJSON(t *testing.T) {
	for _, c := range []struct {
		f    Filter
		want string
	}{
		{Filter{Value: "linux", Quoted: true}, `"linux"`},
		{Filter{Value: "100"}, `100`},
		{Filter{Value: "true"}, `true`},
		{Filter{Value: "bozo"}, `"bozo"`},
		{Filter{Value: "12", Quoted: true}, `"12"`},
	} {
		if got := c.f.JSON(); got != c.want {
			t.Errorf("%+v: %s, want %s", c.f, got, c.want)
		}
	}
}

func FuzzParseConfig(f *testing.F) {
	f.Add("[pmseries]\nstream.maxlen = 10\n[discover]\nexclude.metrics = proc.*, acct.*\n")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseConfig(strings.NewReader(s))
		if err == nil {
			c.LoadOptions()
			c.Servers()
		}
	})
}

func FuzzLoadSource(f *testing.F) {
	f.Add(`{source.path: "/a/b"}`)
	f.Add(`{source.name:'x', metric.name: "y"}`)
	f.Fuzz(func(t *testing.T, s string) {
		if _, _, err := LoadSource(s); err == nil {
			if _, perr := ParseExpr(s); perr != nil {
				t.Fatalf("%q: accepted, but the query grammar refuses it: %v", s, perr)
			}
		}
	})
}

func TestStreamIDRoundTrip(t *testing.T) {
	for _, ts := range []struct{ sec, nsec int64 }{{0, 0}, {1101337806, 251219000}, {1648968664, 731688999}} {
		id := streamID(pcpTS(ts.sec, ts.nsec))
		back := parseStreamID(id)
		if back.Sec != ts.sec || int64(back.Nsec) != ts.nsec/1000*1000 {
			t.Errorf("%v: %s back to %v", ts, id, back)
		}
	}
}

// TestParseStreamID reads IDs as libpcp_web's extract_time does: base 0
// numbers, nothing refused, the fraction microseconds carried into the
// seconds.
func TestParseStreamID(t *testing.T) {
	for _, c := range []struct {
		id        string
		sec, nsec int64
	}{
		{"1101337806251-219", 1101337806, 251219000},
		{"1000-1500000", 2, 500000000},
		{"1999-1000", 2, 0},
		{"0x10-0x10", 0, 16016000},
		{"010-010", 0, 8008000},
		{"12", 0, 12000000},
		{"12x-5", 0, 12000000},
		{"-", 0, 0},
		{"", 0, 0},
		{"1-2-3", 0, 1002000},
		{" +5- 7", 0, 5007000},
	} {
		got := parseStreamID(c.id)
		if got.Sec != c.sec || int64(got.Nsec) != c.nsec {
			t.Errorf("parseStreamID(%q) = %d.%09d, want %d.%09d", c.id, got.Sec, got.Nsec, c.sec, c.nsec)
		}
	}
}
