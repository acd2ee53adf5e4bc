package series

import (
	"strings"
	"testing"
	"time"
)

func TestParseQuery(t *testing.T) {
	now := time.Unix(1000000, 0)
	cases := []struct {
		in      string
		name    string
		filters int
		samples int
		start   time.Time
		iv      time.Duration
		err     string
	}{
		{in: "kernel.all.load", name: "kernel.all.load"},
		{in: " sample.* ", name: "sample.*"},
		{in: `disk.dev.read{hostname=="x",instance.name!='sda'}`, name: "disk.dev.read", filters: 2},
		{in: `a.b[samples:3]`, name: "a.b", samples: 3},
		{in: `a.b[count: 2, start: -10m, interval: 30s]`, name: "a.b", samples: 2, start: now.Add(-10 * time.Minute), iv: 30 * time.Second},
		{in: `{agent=="linux"}`, filters: 1},
		{in: `a.b{x~~"s*"}[start:999000,finish:1000000]`, name: "a.b", filters: 1, start: time.Unix(999000, 0)},
		{in: "*", err: "cannot parse"},
		{in: "a.b{x}", err: "expected one of"},
		{in: `a.b{x=="y"`, err: "expected ','"},
		{in: `a.b{x=="y}`, err: "unterminated"},
		{in: `a.b[samples:-1]`, err: "invalid samples"},
		{in: `a.b[bogus:1]`, err: "unknown time window"},
		{in: `a.b[interval:3 fortnights]`, err: "unknown unit"},
		{in: `a.b junk`, err: "unexpected text"},
		{in: ``, err: "no metric name"},
		{in: strings.Repeat("a", MaxQueryLen+1), err: "too long"},
	}
	for _, c := range cases {
		q, err := parseQueryAt(c.in, now)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if q.Name != c.name || len(q.Filters) != c.filters {
			t.Errorf("%q: name %q, %d filters", c.in, q.Name, len(q.Filters))
		}
		if c.samples != 0 || !c.start.IsZero() || c.iv != 0 {
			if q.Window == nil || q.Window.Samples != c.samples || !q.Window.Start.Equal(c.start) || q.Window.Interval != c.iv {
				t.Errorf("%q: window %+v", c.in, q.Window)
			}
		}
	}
}

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

func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{"a.b", `a.b{x=="y",z!=1}[samples:3]`, `{l=~"^a"}[start:-1h,finish:-1m,interval:10s]`, "*", "a[", "a{"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := ParseQuery(s)
		if err == nil && q.Name == "" && len(q.Filters) == 0 {
			t.Fatalf("%q: accepted with neither name nor filter", s)
		}
	})
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
		p, err := LoadSource(s)
		if err == nil && p == "" {
			t.Fatalf("%q: empty path accepted", s)
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
