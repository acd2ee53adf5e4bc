package resp

import (
	"context"
	"testing"
	"time"
)

// TestDeadlineEndedContext: when the context ends as an exchange ends,
// the deadline its end sets may land after the next exchange's, so the
// connection is closed rather than kept; an exchange whose context is
// still live leaves the connection usable.
func TestDeadlineEndedContext(t *testing.T) {
	addr := fake(t, func(string, []string) string { return "+PONG\r\n" })
	c, err := Dial(context.Background(), addr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if !c.Deadline(context.Background(), time.Minute)() || c.Broken() {
		t.Fatal("an exchange under a live context broke the connection")
	}
	if _, err := c.Do(context.Background(), "PING"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if c.Deadline(ctx, time.Minute)() {
		t.Error("stop reported the ended context's function as not started")
	}
	if !c.Broken() {
		t.Error("connection kept after its context ended with the exchange")
	}
}
