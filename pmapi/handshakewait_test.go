package pmapi

import (
	"testing"
	"time"

	"github.com/gopcp/gopcp/pdu"
)

// TestHandshakeWaitOption: WithHandshakeWait's wait holds once a host
// context has connected in the process, libpcp's default before; zero
// is a zero wait, and without the option the request timeout is waited.
func TestHandshakeWaitOption(t *testing.T) {
	was := hostContextMade.Load()
	t.Cleanup(func() { hostContextMade.Store(was) })
	half, zero := 500*time.Millisecond, time.Duration(0)
	for _, tc := range []struct {
		made     bool
		hw       *time.Duration
		wait     time.Duration
		zeroWait bool
	}{
		{false, nil, 3 * time.Second, false},
		{true, nil, 3 * time.Second, false},
		{false, &half, pdu.DefaultTimeout, false},
		{true, &half, half, false},
		{false, &zero, pdu.DefaultTimeout, false},
		{true, &zero, 0, true},
	} {
		hostContextMade.Store(tc.made)
		o := options{requestTimeout: 3 * time.Second, handshakeWait: tc.hw}
		if wait, z := o.handshakeTimeout(); wait != tc.wait || z != tc.zeroWait {
			t.Errorf("made %v, wait %v: %v, %v; want %v, %v", tc.made, tc.hw, wait, z, tc.wait, tc.zeroWait)
		}
	}
}
