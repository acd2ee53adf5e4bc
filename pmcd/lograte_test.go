package pmcd

import (
	"bytes"
	"log"
	"strings"
	"testing"
	"time"
)

func TestLogLimiter(t *testing.T) {
	t.Parallel()
	// Each step advances the clock by dt, then asks for one line.
	type step struct {
		dt         time.Duration
		ok         bool
		suppressed int
	}
	for _, tc := range []struct {
		name  string
		burst int
		steps []step
	}{
		{"burst then held back", 2, []step{{0, true, 0}, {time.Second, true, 0}, {time.Second, false, 0}, {time.Second, false, 0}}},
		{"count reported with the next period's first line", 1, []step{{0, true, 0}, {0, false, 0}, {0, false, 0}, {time.Minute, true, 2}, {0, false, 0}}},
		{"quiet periods report nothing", 1, []step{{0, true, 0}, {time.Hour, true, 0}, {time.Hour, true, 0}}},
		{"a clock stepped back starts a period", 1, []step{{0, true, 0}, {0, false, 0}, {-time.Hour, true, 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			now := time.Unix(1e9, 0)
			l := &logLimiter{period: time.Minute, burst: tc.burst, now: func() time.Time { return now }}
			for i, s := range tc.steps {
				now = now.Add(s.dt)
				ok, n := l.allow()
				if ok != s.ok || n != s.suppressed {
					t.Errorf("step %d: allow() = %v, %d; want %v, %d", i, ok, n, s.ok, s.suppressed)
				}
			}
		})
	}
}

// TestClientLogLimited has a client log many lines: a burst reaches the
// log, then the rest are counted, and the count appears with the next
// line the limiter lets through.
func TestClientLogLimited(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	now := time.Unix(1e9, 0)
	s := &Server{Log: log.New(&buf, "", 0)}
	s.clientLog.now = func() time.Time { return now }
	for i := 0; i < 1000; i++ {
		s.clientLogf("client %d: bad PDU", i)
	}
	now = now.Add(clientLogPeriod)
	s.clientLogf("client last: bad PDU")
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != clientLogBurst+1 {
		t.Fatalf("%d lines logged, want %d:\n%s", len(lines), clientLogBurst+1, buf.String())
	}
	want := "client last: bad PDU (980 similar lines suppressed)"
	if got := lines[len(lines)-1]; got != want {
		t.Errorf("last line %q, want %q", got, want)
	}
}
