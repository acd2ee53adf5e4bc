package pmcd

import (
	"bytes"
	"log"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/lograte"
)

// TestClientLogLimited has a client log many lines: a burst reaches the
// log, then the rest are counted, and the count appears with the next
// line the limiter lets through.
func TestClientLogLimited(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	now := time.Unix(1e9, 0)
	s := &Server{Log: log.New(&buf, "", 0)}
	s.clientLog.Now = func() time.Time { return now }
	for i := 0; i < 1000; i++ {
		s.clientLogf("client %d: bad PDU", i)
	}
	now = now.Add(lograte.DefaultPeriod)
	s.clientLogf("client last: bad PDU")
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != lograte.DefaultBurst+1 {
		t.Fatalf("%d lines logged, want %d:\n%s", len(lines), lograte.DefaultBurst+1, buf.String())
	}
	want := "client last: bad PDU (980 similar lines suppressed)"
	if got := lines[len(lines)-1]; got != want {
		t.Errorf("last line %q, want %q", got, want)
	}
}
