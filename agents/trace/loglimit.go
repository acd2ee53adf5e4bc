package trace

import (
	"log"
	"sync"
	"time"
)

// logLimiter writes at most burst lines per period and counts the rest,
// so that a misbehaving program cannot fill the agent's log.
type logLimiter struct {
	l      *log.Logger
	burst  int
	period time.Duration

	mu      sync.Mutex
	start   time.Time
	n       int
	dropped int
}

func newLogLimiter(l *log.Logger, burst int, period time.Duration) *logLimiter {
	return &logLimiter{l: l, burst: burst, period: period}
}

func (g *logLimiter) Printf(format string, args ...any) {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := time.Now()
	if now.Sub(g.start) >= g.period {
		if g.dropped > 0 {
			g.l.Printf("%d more lines were not logged", g.dropped)
		}
		g.start, g.n, g.dropped = now, 0, 0
	}
	if g.n >= g.burst {
		g.dropped++
		return
	}
	g.n++
	g.l.Printf(format, args...)
}
