package pmapi

import (
	"sync/atomic"
	"time"

	"github.com/gopcp/gopcp/pdu"
)

// WithHandshakeWait sets the wait for pmcd's side of the handshake (its
// greeting, and the authentication exchange) apart from
// WithRequestTimeout's, as libpcp waits PMCD_REQUEST_TIMEOUT's exact
// value there (internal/pmapienv gives it), where zero is a zero wait:
// the handshake fails with pcp.ErrTimeout (libpcp's would only take a
// greeting already there, which on connecting it seldom is). libpcp reads that variable only once its first host context
// has been made, so until a host context of this process has connected,
// the handshake waits pdu.DefaultTimeout instead. Without this option
// the handshake waits as every request does.
func WithHandshakeWait(d time.Duration) Option {
	return func(o *options) { o.handshakeWait = &d }
}

// hostContextMade records that a host context has connected in this
// process, after which WithHandshakeWait's wait holds.
var hostContextMade atomic.Bool

// handshakeTimeout is the handshake's wait: zero reports a zero wait,
// which a wait of 0 (no limit) does not.
func (o options) handshakeTimeout() (wait time.Duration, zero bool) {
	switch {
	case o.handshakeWait == nil:
		return o.requestTimeout, false
	case !hostContextMade.Load():
		return pdu.DefaultTimeout, false
	case *o.handshakeWait <= 0:
		return 0, true
	}
	return *o.handshakeWait, false
}
