package pmlogger

import (
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pmapi"
)

// TestNewNamedServe makes loggers as pmlogger does, from a name with a
// strftime conversion whose expansion is taken, and runs them with Serve:
// the name gets its "-00" suffix, the taken one reported; a run is ended
// by its sample limit, or by the recording session's Q; the archive is
// closed either way.
func TestNewNamedServe(t *testing.T) {
	p := testbed.StartPMCD(t, testbed.Options{})
	// An unanswerable dialog (no PCP_XCONFIRM_PROG program) is "Yes".
	t.Setenv("PCP_XCONFIRM_PROG", "/nonexistent/pmconfirm")
	ctx := context.Background()
	src, err := pmapi.NewHostContext(ctx, p.Host())
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	for _, tc := range []struct {
		name    string
		samples int
		session string // the launcher's commands, "" for no session
		stop    string
	}{
		{"limit", 2, "", "Sample limit reached"},
		{"session", 0, "V0\nQ\n", "Recording session terminated"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			now := time.Now()
			taken := filepath.Join(dir, "a-"+now.Format("2006"))
			if err := os.WriteFile(taken+".index", nil, 0o644); err != nil {
				t.Fatal(err)
			}
			cfg, err := ParseConfig("log mandatory on 100 msec { sample.long.one }\n", "config", time.Second)
			if err != nil {
				t.Fatal(err)
			}
			plan, err := ResolvePlan(ctx, src, cfg, "config", io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			var log strings.Builder
			opt := Options{Version: 3, ConfigFile: "config", Samples: tc.samples, Log: &log, Plan: plan}
			lg, name, err := NewNamed(ctx, src, cfg, opt, filepath.Join(dir, "a-%Y"), now)
			if err != nil {
				t.Fatal(err)
			}
			if want := taken + "-00"; name != want {
				t.Errorf("archive %s, want %s", name, want)
			}
			if want := `__pmLogNewFile: "` + taken + `.index" already exists`; !strings.Contains(log.String(), want) {
				t.Errorf("log lacks %q:\n%s", want, log.String())
			}
			ln, _, err := ListenControl(ControlEnv{}, func(string) {})
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			o := ServeOptions{Control: []net.Listener{ln, nil}}
			if tc.session != "" {
				o.Session = &Session{Host: "h", Log: &log}
				o.SessionControl = io.NopCloser(strings.NewReader(tc.session))
			}
			res := lg.Serve(ctx, o)
			if res.RunErr != nil || res.CloseErr != nil || res.Stop != tc.stop {
				t.Errorf("Serve: %+v, want stop %q\n%s", res, tc.stop, log.String())
			}
			if !lg.closed {
				t.Errorf("archive not closed")
			}
		})
	}
}
