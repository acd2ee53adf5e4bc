package pmlogger

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"
)

func TestSessionServe(t *testing.T) {
	for _, tc := range []struct {
		script string
		quit   bool
		log    []string // substrings the log must hold
	}{
		{"V0\nFf\nPp\nQ\n", true, []string{"folio \"f\"", "terminated this PCP recording session"}},
		{"V0\nD\nQ\n", false, []string{"continue independently"}},
		{"", true, []string{"Terminate this PCP recording session now?"}},
		{"V0\n?\n", true, []string{"Warning: pmconfirm(1) failed", "Terminate this"}},
		{"V0\nQQ", true, []string{"incomplete recording session control message: \"QQ\""}},
		{"Zap\n", true, []string{"illegal recording session control message: \"Zap\""}},
		{strings.Repeat("x", sessionLimit+10), true, []string{"absurd recording session control message"}},
		{"R\nFfol\nD\n", false, []string{"$ pmafm fol replay"}},
	} {
		var log bytes.Buffer
		s := &Session{Host: "h", Log: &log, Start: time.Now()}
		// An unanswerable dialog (no PCP_XCONFIRM_PROG program) is "Yes".
		t.Setenv("PCP_XCONFIRM_PROG", "/nonexistent/pmconfirm")
		quit := s.Serve(context.Background(), nil, io.NopCloser(strings.NewReader(tc.script)))
		if quit != tc.quit {
			t.Errorf("%q: quit %v, want %v\n%s", tc.script, quit, tc.quit, log.String())
		}
		for _, want := range tc.log {
			if !strings.Contains(log.String(), want) {
				t.Errorf("%q: log lacks %q:\n%s", tc.script, want, log.String())
			}
		}
	}
}

func TestSizeText(t *testing.T) {
	for _, tc := range []struct {
		n    float64
		want string
	}{
		{0, "0 bytes"}, {10239, "10239 bytes"}, {10240, "10.0 Kbytes"},
		{10 << 20, "10.0 Mbytes"}, {20 << 30, "20480 Mbytes"},
	} {
		if got := sizeText(tc.n); got != tc.want {
			t.Errorf("sizeText(%v) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

// FuzzSession feeds arbitrary launcher input to a session: it ends
// without panicking.
func FuzzSession(f *testing.F) {
	for _, s := range []string{"V0\nFx\nPy\nR\nQ\n", "D\n", "?\n?\n", "", "V1\n\x00\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, script string) {
		t.Setenv("PCP_XCONFIRM_PROG", "")
		s := &Session{Log: io.Discard}
		s.Serve(context.Background(), nil, io.NopCloser(strings.NewReader(script)))
	})
}
