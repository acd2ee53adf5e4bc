package lograte

import (
	"testing"
	"time"
)

func TestLimiter(t *testing.T) {
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
		{"zero burst is the default", 0, append(repeat(step{0, true, 0}, DefaultBurst), step{0, false, 0}, step{DefaultPeriod, true, 1})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			now := time.Unix(1e9, 0)
			l := &Limiter{Period: time.Minute, Burst: tc.burst, Now: func() time.Time { return now }}
			for i, s := range tc.steps {
				now = now.Add(s.dt)
				ok, n := l.Allow()
				if ok != s.ok || n != s.suppressed {
					t.Errorf("step %d: Allow() = %v, %d; want %v, %d", i, ok, n, s.ok, s.suppressed)
				}
			}
		})
	}
}

func repeat[T any](v T, n int) []T {
	out := make([]T, n)
	for i := range out {
		out[i] = v
	}
	return out
}
