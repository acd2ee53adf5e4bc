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
		back, ok := parseStreamID(id)
		if !ok || back.Sec != ts.sec || int64(back.Nsec) != ts.nsec/1000*1000 {
			t.Errorf("%v: %s back to %v", ts, id, back)
		}
	}
}
