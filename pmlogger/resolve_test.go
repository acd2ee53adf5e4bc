package pmlogger

import (
	"context"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pmapi"
)

// TestResolveInstances resolves requests naming instances against a
// private pmcd: an instance given for a singular metric is undefined (it
// has no instance domain to name one in) and the request dropped, as is
// an unknown instance of a metric with a domain; a refused advisory
// request gives PCP's reason. The tasks counted are those left to log
// or, mandatory off, to hold their metrics off.
func TestResolveInstances(t *testing.T) {
	p := testbed.StartPMCD(t, testbed.Options{})
	ctx := context.Background()
	src, err := pmapi.NewHostContext(ctx, p.Host())
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	for _, c := range []struct {
		cfg   string
		tasks int
		warns []string
	}{
		{"log mandatory on 1 sec { sample.long.one [ 1 ] }\n", 0,
			[]string{`Instance "1" is not defined for the metric "sample.long.one"`}},
		{"log mandatory on 1 sec { sample.long.one [ \"one\" ] sample.long.ten }\n", 1,
			[]string{`Instance "one" is not defined for the metric "sample.long.one"`}},
		{"log mandatory on 1 sec { sample.colour [ 99 \"red\" ] }\n", 1,
			[]string{`Instance "99" is not defined for the metric "sample.colour"`}},
		{"log mandatory off { sample.colour [ 1 ] }\nlog advisory on 1 sec { sample.colour [ 1 ] }\n", 1,
			[]string{`Incompatible request for metric "sample.colour" and instance "(null)"`,
				"Request for (advisory) ON conflicts with current (mandatory) OFF state"}},
		{"log mandatory on 1 sec { sample.long.one sample.colour [ 1 ] }\n", 1, nil},
	} {
		cfg, err := ParseConfig(c.cfg, "config", 0)
		if err != nil {
			t.Fatalf("%q: %v", c.cfg, err)
		}
		var log strings.Builder
		n, err := Resolve(ctx, src, cfg, "config", &log)
		if err != nil || n != c.tasks {
			t.Errorf("%q: %d tasks %v, want %d", c.cfg, n, err, c.tasks)
		}
		var got []string
		for _, l := range strings.Split(strings.TrimSuffix(log.String(), "\n"), "\n") {
			if l != "" && !strings.HasPrefix(l, "Warning [") {
				got = append(got, l)
			}
		}
		if strings.Join(got, "\n") != strings.Join(c.warns, "\n") {
			t.Errorf("%q: messages\n%s\nwant\n%s", c.cfg, strings.Join(got, "\n"), strings.Join(c.warns, "\n"))
		}
	}
}
