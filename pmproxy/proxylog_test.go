package pmproxy

import (
	"bytes"
	"context"
	"log"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/lograte"
)

// TestProxyClientLogBounded: PCP proxy clients that fail their handshake
// are logged at most a burst a period, and the first line after says how
// many were held back, so that clients connecting in a loop cannot fill
// the log.
func TestProxyClientLogBounded(t *testing.T) {
	var buf bytes.Buffer
	cfg := &Config{PCP: true, Log: log.New(&buf, "", 0)}
	cfg.setDefaults()
	now := time.Unix(1000, 0)
	lim := &lograte.Limiter{Now: func() time.Time { return now }}
	fail := func() {
		srv, cl := net.Pipe()
		go func() {
			cl.Write([]byte("p"))
			cl.Close()
		}()
		other(context.Background(), srv, cfg, lim, nil)
	}
	for range lograte.DefaultBurst + 10 {
		fail()
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != lograte.DefaultBurst {
		t.Fatalf("%d lines for %d failing clients, want %d:\n%s", len(lines), lograte.DefaultBurst+10, lograte.DefaultBurst, buf.String())
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, "pcp proxy client ") {
			t.Errorf("line %q", l)
		}
	}
	now = now.Add(lograte.DefaultPeriod)
	buf.Reset()
	fail()
	if got := buf.String(); !strings.Contains(got, "(10 more such failures not logged)") {
		t.Errorf("first line of the next period %q, want the count held back", got)
	}
}
