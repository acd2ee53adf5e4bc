//go:build linux

package pmapi

import (
	"context"
	"errors"
	"net"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/pcp"
)

// TestDialPMCDFinishedConnect: a connect that has finished when first
// looked at is taken whatever the timeout, as libpcp's is (TCP loopback
// and a Unix socket finish inside connect(2)); a refused one fails with
// ECONNREFUSED at once.
func TestDialPMCDFinishedConnect(t *testing.T) {
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer tcp.Close()
	sock := filepath.Join(t.TempDir(), "pmcd.socket")
	unix, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close()
	for _, tc := range []struct{ network, addr string }{
		{"tcp", tcp.Addr().String()},
		{"tcp", "localhost:" + strconv.Itoa(tcp.Addr().(*net.TCPAddr).Port)},
		{"unix", sock},
	} {
		for _, wait := range []time.Duration{0, time.Nanosecond, time.Microsecond, time.Minute} {
			c, err := dialPMCD(context.Background(), tc.network, tc.addr, wait)
			if err != nil {
				t.Errorf("%s %s wait %v: %v", tc.network, tc.addr, wait, err)
				continue
			}
			if c.RemoteAddr() == nil || c.RemoteAddr().Network() != tc.network {
				t.Errorf("%s %s: remote address %v", tc.network, tc.addr, c.RemoteAddr())
			}
			c.Close()
		}
	}
	// a port with no listener: tcp's closed, a released port on loopback
	addr := tcp.Addr().String()
	tcp.Close()
	_, err = dialPMCD(context.Background(), "tcp", addr, time.Nanosecond)
	if !errors.Is(dialError(context.Background(), err), pcp.Error(-int32(syscall.ECONNREFUSED))) {
		t.Errorf("closed port: %v; want ECONNREFUSED", err)
	}
	_, err = dialPMCD(context.Background(), "unix", sock+".none", time.Minute)
	if !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("missing socket: %v; want ECONNREFUSED", err)
	}
}

// TestDialPMCDWaits: a connect that cannot finish (a listener whose
// queue is full drops further SYNs) ends at the timeout with ETIMEDOUT,
// or when ctx is cancelled with ctx's error; neither depends on how long
// the machine takes, only on the connect never finishing.
func TestDialPMCDWaits(t *testing.T) {
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(clitest.NewFullListener(t).Port))
	_, err := dialPMCD(context.Background(), "tcp", addr, 50*time.Millisecond)
	if !errors.Is(dialError(context.Background(), err), pcp.Error(-int32(syscall.ETIMEDOUT))) {
		t.Errorf("timeout: %v; want ETIMEDOUT", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	_, err = dialPMCD(ctx, "tcp", addr, 0)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v; want %v", err, context.Canceled)
	}
}

// TestSockaddrsZone: an IPv6 address's zone names the interface or gives
// its index, as getaddrinfo (and Go's dialer) take it.
func TestSockaddrsZone(t *testing.T) {
	lo, err := net.InterfaceByName("lo")
	if err != nil {
		t.Skipf("no loopback interface named lo: %v", err)
	}
	for _, tc := range []struct {
		addr string
		zone uint32
	}{
		{"[fe80::1%lo]:44321", uint32(lo.Index)},
		{"[fe80::1%" + strconv.Itoa(lo.Index) + "]:44321", uint32(lo.Index)},
		{"[fe80::1%7]:44321", 7},
		{"[fe80::1]:44321", 0},
	} {
		sas, err := sockaddrs(context.Background(), "tcp", tc.addr)
		if err != nil || len(sas) != 1 {
			t.Errorf("%s: %v, %v", tc.addr, sas, err)
			continue
		}
		if sa, ok := sas[0].(*syscall.SockaddrInet6); !ok || sa.ZoneId != tc.zone || sa.Port != 44321 {
			t.Errorf("%s: %+v; want zone %d, port 44321", tc.addr, sas[0], tc.zone)
		}
	}
}
