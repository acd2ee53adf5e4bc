package pmapienv

import (
	"context"
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmapi"
)

func lookup(m map[string]string) Lookup {
	return func(name string) (string, bool) { v, ok := m[name]; return v, ok }
}

// TestRequestTimeout reads $PMCD_REQUEST_TIMEOUT as libpcp does.
func TestRequestTimeout(t *testing.T) {
	for v, want := range map[string]time.Duration{
		"2.5":  2500 * time.Millisecond,
		"0":    0,
		"-1":   pdu.DefaultTimeout,
		"abc":  pdu.DefaultTimeout,
		"1e30": 0, // past a Duration: no limit, libpcp's effectively forever
		"":     0, // strtod's zero, as libpcp reads it (internal/getopt's golden)
	} {
		if got := requestTimeout(lookup(map[string]string{"PMCD_REQUEST_TIMEOUT": v})); got != want {
			t.Errorf("PMCD_REQUEST_TIMEOUT=%q: %v, want %v", v, got, want)
		}
	}
	if got := requestTimeout(lookup(nil)); got != pdu.DefaultTimeout {
		t.Errorf("unset: %v, want %v", got, pdu.DefaultTimeout)
	}
}

// TestHostOptionsReachWhereTheyName opens a host context with the
// options of PMCD_PORT and of PMPROXY_HOST/PMPROXY_PORT and checks that
// the connection arrives where each names (a listener of this test, which
// hangs up: the context's error is expected, and the accept is seen
// before the hang-up). PMCD_SOCKET is left out: a failed "local:" falls
// back to TCP on the default port, the system's pmcd.
func TestHostOptionsReachWhereTheyName(t *testing.T) {
	t.Parallel()
	tcp := func(t *testing.T) (net.Listener, string) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		return ln, strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	}
	type setup func(t *testing.T) (ln net.Listener, spec string, env map[string]string)
	tests := map[string]setup{
		"PMCD_PORT": func(t *testing.T) (net.Listener, string, map[string]string) {
			ln, port := tcp(t)
			return ln, "127.0.0.1", map[string]string{"PMCD_PORT": port, "PMCD_CONNECT_TIMEOUT": "20"}
		},
		"PMPROXY_HOST": func(t *testing.T) (net.Listener, string, map[string]string) {
			ln, port := tcp(t)
			return ln, "pmcd.invalid", map[string]string{"PMPROXY_HOST": "127.0.0.1", "PMPROXY_PORT": port, "PMCD_CONNECT_TIMEOUT": "20"}
		},
	}
	for name, set := range tests {
		t.Run(name, func(t *testing.T) {
			ln, spec, env := set(t)
			defer ln.Close()
			came := make(chan struct{})
			go func() {
				if c, err := ln.Accept(); err == nil {
					close(came)
					c.Close()
				}
			}()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			opts := append(HostOptions(lookup(env)), pmapi.WithConsole("none"))
			if c, err := pmapi.NewContext(ctx, pmapi.KindHost, spec, opts...); err == nil {
				c.Close()
				t.Fatalf("%s: a context through a listener that hangs up", spec)
			}
			select {
			case <-came:
			default:
				t.Errorf("%s with %v: no connection reached %s", spec, env, ln.Addr())
			}
		})
	}
}
