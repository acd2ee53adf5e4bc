package trace

import (
	"bytes"
	"log"
	"testing"
	"time"
)

// TestLogLimiter checks the agent's form of a limited log: a burst of
// lines, then silence, then the count as a line of its own before the
// first line of the next period.
func TestLogLimiter(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	now := time.Unix(1e9, 0)
	g := newLogLimiter(log.New(&buf, "", 0), 2, time.Minute)
	g.rate.Now = func() time.Time { return now }
	for _, s := range []string{"a", "b", "c", "d", "e"} {
		g.Printf("line %s", s)
	}
	now = now.Add(time.Minute)
	g.Printf("line f")
	want := "line a\nline b\n3 more lines were not logged\nline f\n"
	if buf.String() != want {
		t.Errorf("log:\n%s\nwant:\n%s", buf.String(), want)
	}
}
