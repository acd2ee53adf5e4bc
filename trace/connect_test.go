package trace_test

import (
	"context"
	"errors"
	"net"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/trace"
)

// TestConnectLikeLibpcpTrace: what libpcp_trace does as it connects (see
// cmd/pmtrace's TestEnvLikePCP for PCP's programs beside ours). An agent
// that never answers the connect ends each attempt at the alarm with
// EINTR; the bad variables' warnings are written at each attempt; a bad
// request timeout leaves every acknowledgement unread, said on Warn, and
// the connection stands. Only outcomes are asserted.
func TestConnectLikeLibpcpTrace(t *testing.T) {
	full := clitest.NewFullListener(t)
	stall := clitest.NewStall(t)
	_, stalled, _ := net.SplitHostPort(stall.Host)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	env := func(kv ...string) trace.Options {
		o, _ := trace.EnvOptions(func(k string) (string, bool) {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1], true
				}
			}
			return "", false
		})
		o.Host = "127.0.0.1"
		return o
	}
	cases := []struct {
		name string
		opts trace.Options
		err  error
		warn string // a regular expression
	}{
		{"alarm", trace.Options{Host: "127.0.0.1", Port: full.Port, ConnectTimeout: 100 * time.Millisecond}, syscall.EINTR, `^$`},
		{"bad port and timeout", env("PCP_TRACE_PORT", "x"+strconv.Itoa(refused), "PCP_TRACE_TIMEOUT", "1s"), syscall.ECONNREFUSED,
			`^trace warning: bad PCP_TRACE_PORT ignored\.trace warning: bogus PCP_TRACE_TIMEOUT\.$`},
		{"bad reqtimeout", env("PCP_TRACE_PORT", stalled, "PCP_TRACE_REQTIMEOUT", "x"), nil,
			// the welcome's and the point's acknowledgement's
			`^(__pmtracegetPDU: fd=\d+ hdr: Unrecognised environment variable format){2}$`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var warn strings.Builder
			c.opts.Warn = &warn
			if c.name == "bad port and timeout" {
				// the default port may have an agent: the bad value
				// must not have been taken, whatever answers there
				if c.opts.Port != 0 {
					t.Fatalf("port %d taken from a bad value", c.opts.Port)
				}
				c.opts.Port = refused
			}
			cl, err := trace.New(c.opts)
			if err != nil {
				t.Fatal(err)
			}
			defer cl.Close()
			err = cl.Point(context.Background(), "p")
			if !errors.Is(err, c.err) && err != c.err {
				t.Errorf("error %v, want %v", err, c.err)
			}
			if !regexp.MustCompile(c.warn).MatchString(warn.String()) {
				t.Errorf("warned %q, want %s", warn.String(), c.warn)
			}
		})
	}
}
