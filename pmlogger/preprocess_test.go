package pmlogger

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestPreprocessLineMarkers checks that errors and statements after an
// %include name the file and line they came from, as pmcpp's line markers
// tell pmlogger.
func TestPreprocessLineMarkers(t *testing.T) {
	dir := t.TempDir()
	inc := filepath.Join(dir, "inc")
	if err := os.WriteFile(inc, []byte("%define F \"2 sec\"\n\nlog mandatory on %F { a.b }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	top := filepath.Join(dir, "top")
	for _, tc := range []struct {
		src, wantFile string
		wantLine      int
		wantErr       bool
	}{
		{"# x\n%include \"inc\"\n", inc, 3, false},
		{"%include \"inc\"\nlog mandatory on 1 sec { c.d }\n", top, 2, false},
		{"%include \"inc\"\n\nlog mandatory on { c.d }\n", top, 3, true},
	} {
		out, err := Preprocess([]byte(tc.src), top)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := ParseConfig(string(out), top, time.Minute)
		if tc.wantErr {
			ce, ok := err.(*ConfigError)
			if !ok || ce.File != tc.wantFile || ce.Line != tc.wantLine {
				t.Errorf("%q: error %v, want %s line %d", tc.src, err, tc.wantFile, tc.wantLine)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", tc.src, err)
		}
		st := cfg.Statements[len(cfg.Statements)-1]
		if st.File != tc.wantFile || st.Line != tc.wantLine {
			t.Errorf("%q: last statement at %s:%d, want %s:%d", tc.src, st.File, st.Line, tc.wantFile, tc.wantLine)
		}
		if tc.wantFile == inc && st.Interval != 2*time.Second {
			t.Errorf("%q: interval %v, want the macro's 2s", tc.src, st.Interval)
		}
	}
}
