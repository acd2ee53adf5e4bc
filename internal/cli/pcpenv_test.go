package cli

import (
	"testing"
	"time"

	"github.com/gopcp/gopcp/pdu"
)

// TestRequestTimeout: the tools' RequestTimeout reads this process's
// $PMCD_REQUEST_TIMEOUT through pmapienv, whose own test has libpcp's
// cases.
func TestRequestTimeout(t *testing.T) {
	for v, want := range map[string]time.Duration{
		"2.5": 2500 * time.Millisecond,
		"abc": pdu.DefaultTimeout,
	} {
		t.Setenv("PMCD_REQUEST_TIMEOUT", v)
		if got := RequestTimeout(); got != want {
			t.Errorf("PMCD_REQUEST_TIMEOUT=%q: %v, want %v", v, got, want)
		}
	}
}
