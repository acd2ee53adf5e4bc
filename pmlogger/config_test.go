package pmlogger

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestParseConfig(t *testing.T) {
	tests := []struct {
		name, src string
		want      []Statement
		access    int
		err       string
	}{
		{name: "braces and units", src: "log mandatory on every 2 sec { a.b c.d[1 \"x y\", z] }\n",
			want: []Statement{{State: State{Mandatory: true, On: true}, Interval: 2 * time.Second, Metrics: []MetricSpec{
				{Name: "a.b"}, {Name: "c.d", Insts: []InstSpec{{Number: 1, ByNum: true}, {Name: "x y"}, {Name: "z"}}}}}}},
		{name: "advisory default", src: "log advisory on default a\n",
			want: []Statement{{State: State{On: true}, Interval: 30 * time.Second, Metrics: []MetricSpec{{Name: "a"}}}}},
		{name: "bare on once", src: "on once { x }  # comment\n",
			want: []Statement{{State: State{On: true}, Once: true, Metrics: []MetricSpec{{Name: "x"}}}}},
		{name: "off and maybe", src: "log mandatory off { x }\nlog mandatory maybe y\n",
			want: []Statement{{State: State{Mandatory: true}, Metrics: []MetricSpec{{Name: "x"}}},
				{State: State{Maybe: true}, Metrics: []MetricSpec{{Name: "y"}}}}},
		{name: "minutes and msec", src: "log mandatory on 3 mins x\nlog mandatory on 250 milliseconds y\n",
			want: []Statement{{State: State{Mandatory: true, On: true}, Interval: 3 * time.Minute, Metrics: []MetricSpec{{Name: "x"}}},
				{State: State{Mandatory: true, On: true}, Interval: 250 * time.Millisecond, Metrics: []MetricSpec{{Name: "y"}}}}},
		{name: "access", src: "log mandatory on 1 sec { x }\n[access]\ndisallow .* : all;\nallow localhost, 192.168.1.*, ::1 : enquire, advisory;\nallow unix:/tmp/s : all except mandatory;\n",
			want: []Statement{{State: State{Mandatory: true, On: true}, Interval: time.Second, Metrics: []MetricSpec{{Name: "x"}}}}, access: 3},
		{name: "hyphenated instance", src: "log mandatory on 1 sec x[bin-100]\n", err: "[line 1] syntax error"},
		{name: "no interval", src: "log mandatory on { x }\n", err: "[line 1] syntax error"},
		{name: "empty braces", src: "log mandatory on 1 sec { }\n", err: "syntax error"},
		{name: "bad character", src: "log mandatory on 1 sec { x! }\n", err: "Unexpected character"},
		{name: "too long", src: "log mandatory on 3000000 hours x\n", err: "cannot be bigger than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := ParseConfig(tt.src, "f", 30*time.Second)
			if tt.err != "" {
				var ce *ConfigError
				if err == nil || !errors.As(err, &ce) || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one with %q", err, tt.err)
				}
				if !strings.HasPrefix(err.Error(), "Specification error in configuration file (f)\n") {
					t.Errorf("error %q not in pmlogger's words", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(cfg.Statements) != len(tt.want) {
				t.Fatalf("%d statements, want %d", len(cfg.Statements), len(tt.want))
			}
			for i, st := range cfg.Statements {
				w := tt.want[i]
				if st.State != w.State || st.Interval != w.Interval || st.Once != w.Once || len(st.Metrics) != len(w.Metrics) {
					t.Errorf("statement %d = %+v, want %+v", i, st, w)
					continue
				}
				for j, m := range st.Metrics {
					if m.Name != w.Metrics[j].Name || len(m.Insts) != len(w.Metrics[j].Insts) {
						t.Errorf("metric %d.%d = %+v, want %+v", i, j, m, w.Metrics[j])
						continue
					}
					for k := range m.Insts {
						if m.Insts[k] != w.Metrics[j].Insts[k] {
							t.Errorf("instance %d.%d.%d = %+v, want %+v", i, j, k, m.Insts[k], w.Metrics[j].Insts[k])
						}
					}
				}
			}
			if len(cfg.Access) != tt.access {
				t.Errorf("%d access rules, want %d", len(cfg.Access), tt.access)
			}
		})
	}
}

func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{
		"log mandatory on 1 sec { a b[1 \"x\"] }\n",
		"log advisory off x\n[access]\nallow * : all;\n",
		"on once { x, y }\n", "log mandatory maybe { a }",
		"log mandatory on every 10 minutes a[\"q\", 3, r]\n# c\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		for _, n := range Pass0Names([]byte(src)) {
			if n == "" || !strings.Contains(src, n) {
				t.Fatalf("pass0 name %q from %q", n, src)
			}
		}
		cfg, err := ParseConfig(src, "fuzz", time.Second)
		if cfg == nil {
			t.Fatalf("no configuration from %q", src)
		}
		if err != nil {
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("error %v is not a ConfigError", err)
			}
			return
		}
		for _, st := range cfg.Statements {
			if len(st.Metrics) == 0 {
				t.Fatalf("statement without metrics from %q", src)
			}
		}
	})
}
