// Package lograte bounds how many lines a source anyone can drive (clients
// connecting and sending what they like, programs feeding an agent) writes
// to a log: at most a burst of lines in each period, the rest counted and
// the count handed back with the next line let through, so that the caller
// can say how many were held back in its own words. Without it a client
// could fill the disk. pmcd and the trace agent share it.
package lograte

import (
	"sync"
	"time"
)

// The zero Limiter's rate: a burst of 20 lines, then none until the
// minute is up.
const (
	DefaultPeriod = time.Minute
	DefaultBurst  = 20
)

// Limiter counts lines against a rate. Its settings are read at each
// call; the zero value allows DefaultBurst lines each DefaultPeriod. A
// Limiter is safe for concurrent use and must not be copied after use.
type Limiter struct {
	Period time.Duration    // DefaultPeriod when not positive
	Burst  int              // DefaultBurst when not positive
	Now    func() time.Time // time.Now when nil; a test's clock

	mu         sync.Mutex
	start      time.Time // of the current period
	n          int       // lines let through in it
	suppressed int       // lines held back since the last one let through
}

// Allow says whether a line may be written now, and when it may, how many
// were held back before it. A clock stepped back starts a new period.
func (l *Limiter) Allow() (ok bool, suppressed int) {
	now := time.Now
	if l.Now != nil {
		now = l.Now
	}
	period, burst := l.Period, l.Burst
	if period <= 0 {
		period = DefaultPeriod
	}
	if burst <= 0 {
		burst = DefaultBurst
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
