package pmapi

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
)

func TestParseProxyPort(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
	}{
		{"44332", 44332},
		{"5,6", 5},
		{"0x10", 16},
		{"x", DefaultProxyPort},
		{"-1", DefaultProxyPort},
		{"1,x", DefaultProxyPort},
	} {
		if got := ParseProxyPort(c.in); got != c.want {
			t.Errorf("ParseProxyPort(%q) = %d, want %d", c.in, got, c.want)
		}
	}
}

// fakeProxy accepts connections and answers each with greeting, recording
// the lines the client sent (its greeting and its target) on lines.
func fakeProxy(t *testing.T, greeting string) (int, chan string) {
	t.Helper()
	lines := make(chan string, 16)
	addr := loopbackServer(t, func(c net.Conn) {
		_ = c.SetDeadline(time.Now().Add(time.Minute))
		r := bufio.NewReader(c)
		hello, err := r.ReadString('\n')
		if err != nil {
			return
		}
		lines <- hello
		if _, err := io.WriteString(c, greeting); err != nil {
			return
		}
		target, err := r.ReadString('\n')
		if err != nil {
			return
		}
		lines <- target
	})
	return addr.Port, lines
}

// TestProxyHandshake checks what is sent to the proxy, that each of
// pmcd's ports is asked for on a connection of its own, and libpcp's
// errors: a bad greeting is PM_ERR_IPC, an unreachable proxy its errno,
// a Unix socket specification EPERM.
func TestProxyHandshake(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	port, lines := fakeProxy(t, "not-pmproxy 1\n")
	spec := "pmcdhost:7,8@127.0.0.1:" + strconv.Itoa(port)
	_, err := NewHostContext(ctx, spec, WithRequestTimeout(20*time.Second))
	if !errors.Is(err, pcp.ErrIPC) {
		t.Errorf("bad greeting: %v, want PM_ERR_IPC", err)
	}
	want := []string{"pmproxy-client 1\n", "pmproxy-client 1\n"}
	for i := range want {
		if got := <-lines; got != want[i] {
			t.Errorf("line %d = %q, want %q", i, got, want[i])
		}
	}

	// a greeting ended by '\r', as libpcp accepts; the fake closes after
	// the target, so pmcd's handshake fails, and the next port is asked
	port, lines = fakeProxy(t, "pmproxy-server 1\r\n")
	_, err = NewHostContext(ctx, "pmcdhost", WithProxy("127.0.0.1", port), WithPorts([]int{5, 6}), WithRequestTimeout(20*time.Second))
	if err == nil {
		t.Fatal("connected to a fake pmcd")
	}
	want = []string{"pmproxy-client 1\n", "pmcdhost 5\n", "pmproxy-client 1\n", "pmcdhost 6\n"}
	for i := range want {
		if got := <-lines; got != want[i] {
			t.Errorf("line %d = %q, want %q", i, got, want[i])
		}
	}

	free, release, err := testbed.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	_, err = NewHostContext(ctx, "localhost@127.0.0.1:"+strconv.Itoa(free))
	if !errors.Is(err, pcp.Error(-int32(syscall.ECONNREFUSED))) {
		t.Errorf("proxy not listening: %v, want ECONNREFUSED", err)
	}
	_, err = NewHostContext(ctx, "local:", WithProxy("127.0.0.1", free))
	if !errors.Is(err, pcp.Error(-int32(syscall.EPERM))) {
		t.Errorf("local: through a proxy: %v, want EPERM", err)
	}
	_, err = NewHostContext(ctx, "localhost", WithProxy("", free))
	if !errors.Is(err, pcp.Error(-int32(syscall.EHOSTUNREACH))) {
		t.Errorf("empty proxy host: %v, want EHOSTUNREACH", err)
	}
}
