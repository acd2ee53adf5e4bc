package cli

import (
	"testing"
	"time"

	"github.com/gopcp/gopcp/pdu"
)

// TestRequestTimeout reads $PMCD_REQUEST_TIMEOUT as libpcp does, for the
// tools that hand it to the libraries.
func TestRequestTimeout(t *testing.T) {
	for v, want := range map[string]time.Duration{
		"2.5":  2500 * time.Millisecond,
		"0":    0,
		"-1":   pdu.DefaultTimeout,
		"abc":  pdu.DefaultTimeout,
		"1e30": pdu.DefaultTimeout,
		"":     pdu.DefaultTimeout,
	} {
		t.Setenv("PMCD_REQUEST_TIMEOUT", v)
		if got := RequestTimeout(); got != want {
			t.Errorf("PMCD_REQUEST_TIMEOUT=%q: %v, want %v", v, got, want)
		}
	}
}
