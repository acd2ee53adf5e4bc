package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestReconnect stops pmcd in the middle of a report: each later line is
// " Fetch failed. Reconnecting ..." and pmstat goes on to the end, as
// PCP's pmstat does when its pmcd goes away (checked by hand: the same
// lines follow the last report line).
func TestReconnect(t *testing.T) {
	bed := testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(), testbed.LinuxAgent()}})
	sleeps := 0
	sleep := func(time.Duration) {
		sleeps++
		if sleeps == 3 {
			bed.Close()
		}
	}
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"pmstat", "-h", bed.Host(), "-s", "4"}, &out, &errb, sleep)
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if code != 0 || len(lines) != 7 {
		t.Fatalf("exit %d, %d lines:\n%s%s", code, len(lines), out.String(), errb.String())
	}
	for i, l := range lines[3:] {
		failed := l == " Fetch failed. Reconnecting ..."
		if failed != (i >= 2) {
			t.Errorf("line %d: %q", i+4, l)
		}
	}
}
