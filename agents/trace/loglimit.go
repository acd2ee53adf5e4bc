package trace

import (
	"log"
	"time"

	"github.com/gopcp/gopcp/internal/lograte"
)

// logLimiter writes at most burst lines per period and counts the rest,
// so that a misbehaving program cannot fill the agent's log; the count is
// a line of its own before the next line written.
type logLimiter struct {
	l    *log.Logger
	rate lograte.Limiter
}

func newLogLimiter(l *log.Logger, burst int, period time.Duration) *logLimiter {
	return &logLimiter{l: l, rate: lograte.Limiter{Burst: burst, Period: period}}
}

func (g *logLimiter) Printf(format string, args ...any) {
	ok, dropped := g.rate.Allow()
	if !ok {
		return
	}
	if dropped > 0 {
		g.l.Printf("%d more lines were not logged", dropped)
	}
	g.l.Printf(format, args...)
}
