package pmapi

import (
	"errors"
	"reflect"
	"testing"
)

func TestParseMetricSpec(t *testing.T) {
	tests := []struct {
		spec   string
		want   MetricSpec
		report string
	}{
		{spec: "sample.long.one", want: MetricSpec{Kind: KindHost, Source: "local:", Metric: "sample.long.one"}},
		{spec: "  sample.colour[red,blue] ", want: MetricSpec{Kind: KindHost, Source: "local:", Metric: "sample.colour", Insts: []string{"red", "blue"}}},
		{spec: `sample.bin["bin 100" , bin-200]`, want: MetricSpec{Kind: KindHost, Source: "local:", Metric: "sample.bin", Insts: []string{"bin 100", "bin-200"}}},
		{spec: "otherhost:kernel.all.load[1 minute]", want: MetricSpec{Kind: KindHost, Source: "otherhost", Metric: "kernel.all.load", Insts: []string{"1", "minute"}}},
		{spec: "@:sample.long.one", want: MetricSpec{Kind: KindLocal, Source: "@", Metric: "sample.long.one"}},
		{spec: "/var/log/pcp/a/20240101/disk.dev.read", want: MetricSpec{Kind: KindArchive, Source: "/var/log/pcp/a/20240101", Metric: "disk.dev.read"}},
		{spec: `a\.b`, want: MetricSpec{Kind: KindHost, Source: "local:", Metric: "a.b"}},
		{spec: "m[]", want: MetricSpec{Kind: KindHost, Source: "local:", Metric: "m", Insts: []string{}}},
		{spec: ":m", report: ":m\n^ -- host name expected\n"},
		{spec: " /m", report: " /m\n ^ -- archive name expected\n"},
		{spec: "", report: "\n^ -- performance metric name expected\n"},
		{spec: "h:", report: "h:\n  ^ -- performance metric name expected\n"},
		{spec: "a,b", report: "a,b\n ^ -- unexpected character in metric name\n"},
		{spec: "m[x", report: "m[x\n   ^ -- closing ] expected\n"},
		{spec: `m["x]`, report: "m[\"x]\n     ^ -- closing \" and ] expected\n"},
		{spec: "m[x] y", report: "m[x] y\n     ^ -- unexpected extra characters\n"},
	}
	for _, tc := range tests {
		got, err := ParseMetricSpec(tc.spec, KindHost, "local:")
		if tc.report != "" {
			var me *MetricSpecError
			if !errors.As(err, &me) || me.Report() != tc.report {
				t.Errorf("ParseMetricSpec(%q) = %v, want report %q", tc.spec, err, tc.report)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(*got, tc.want) {
			t.Errorf("ParseMetricSpec(%q) = %+v, %v; want %+v", tc.spec, got, err, tc.want)
		}
	}
}

func FuzzParseMetricSpec(f *testing.F) {
	for _, s := range []string{"a", "h:m[1,2]", `m["x\"y"]`, "a/b/c[", "@:x", `\`, `m[\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ms, err := ParseMetricSpec(s, KindHost, "local:")
		if err != nil {
			var me *MetricSpecError
			if !errors.As(err, &me) {
				t.Fatalf("%q: %v", s, err)
			}
			_ = me.Report()
			return
		}
		if ms.Metric == "" {
			t.Fatalf("%q: empty metric", s)
		}
	})
}
