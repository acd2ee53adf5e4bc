//go:build !linux

package pmapi

import (
	"context"
	"net"
	"time"
)

// dialPMCD connects with Go's dialer where the socket calls libpcp's
// connect makes are not at hand (dialwait.go): a timeout too short for
// the dialer to start fails even on loopback.
func dialPMCD(ctx context.Context, network, addr string, timeout time.Duration) (net.Conn, error) {
	d := net.Dialer{Timeout: timeout}
	return d.DialContext(ctx, network, addr)
}
