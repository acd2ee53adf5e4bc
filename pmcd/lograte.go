package pmcd

import (
	"sync"
	"time"
)

// logLimiter bounds how many lines a source anyone can drive (clients
// connecting and sending what they like) writes to the log: at most burst
// lines in each period, the rest counted and the count reported with the
// next line let through. Without it a client could fill the disk. The
// zero value allows clientLogBurst lines each clientLogPeriod.
type logLimiter struct {
	period time.Duration
	burst  int
	now    func() time.Time // time.Now unless a test says otherwise

	mu         sync.Mutex
	start      time.Time // of the current period
	n          int       // lines let through in it
	suppressed int       // lines held back since the last one let through
}

// Client log lines: a burst of 20, then none until the minute is up.
const (
	clientLogPeriod = time.Minute
	clientLogBurst  = 20
)

// allow says whether a line may be written now, and when it may, how many
// were held back before it.
func (l *logLimiter) allow() (ok bool, suppressed int) {
	now := time.Now
	if l.now != nil {
		now = l.now
	}
	period, burst := l.period, l.burst
	if period <= 0 {
		period = clientLogPeriod
	}
	if burst <= 0 {
		burst = clientLogBurst
	}
	t := now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.start.IsZero() || t.Sub(l.start) >= period || t.Before(l.start) {
		l.start, l.n = t, 0
	}
	if l.n >= burst {
		l.suppressed++
		return false, 0
	}
	l.n++
	suppressed, l.suppressed = l.suppressed, 0
	return true, suppressed
}
