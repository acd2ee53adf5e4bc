package pmlogger

import (
	"net"
	"strings"
	"testing"
)

// addrConn is a connection with chosen addresses.
type addrConn struct {
	net.Conn
	local, remote net.Addr
}

func (c addrConn) LocalAddr() net.Addr  { return c.local }
func (c addrConn) RemoteAddr() net.Addr { return c.remote }

// TestClientHost: a Unix-socket client is named by the socket's path, cut
// to the 63 bytes PCP's pmlogger keeps; a TCP client by its address when
// it has no name.
func TestClientHost(t *testing.T) {
	short := "/tmp/gopcp-pmcd-1/run/pmlogger.123.socket"
	long := "/tmp/flaky2-tmp3/gopcp-pmcd-1258779388/run/pmlogger.12345.socket"
	unix := func(path string) net.Conn {
		return addrConn{local: &net.UnixAddr{Name: path, Net: "unix"}, remote: &net.UnixAddr{Net: "unix"}}
	}
	for _, c := range []struct {
		name string
		conn net.Conn
		want string
	}{
		{"short path", unix(short), short},
		{"long path", unix(long), long[:63]},
		{"address without a name", addrConn{remote: &net.TCPAddr{IP: net.ParseIP("192.0.2.7")}}, "192.0.2.7"},
	} {
		if got := clientHost(c.conn); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	if !strings.HasSuffix(long[:63], ".socke") {
		t.Fatalf("the long path's cut %q is not the one PCP's log showed", long[:63])
	}
}
