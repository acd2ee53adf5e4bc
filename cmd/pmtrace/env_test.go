package main

import (
	"context"
	"net"
	"os/exec"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// TestEnvLikePCP runs PCP's pmtrace and ours with PCP_TRACE_* values good
// and bad against agents that refuse the connection, never answer the
// connect (a full listener) and never send their welcome (a stall): the
// warnings libpcp_trace writes as it connects, how long it lets a connect
// run (its alarm of PCP_TRACE_TIMEOUT seconds, ending the attempt with
// EINTR, or its own 5 seconds, with ETIMEDOUT, on each of the three
// entries getaddrinfo gives for an address) and its wait for the welcome
// must give the same output and status. Only outcomes are compared: a
// stalled peer ends every wait by its timeout however loaded the machine.
func TestEnvLikePCP(t *testing.T) {
	theirs, ours := pcptest.NeedTool(t, "pmtrace"), pcptest.GoCommand(t, ".")
	refused := closedPort(t)
	full := strconv.Itoa(clitest.NewFullListener(t).Port)
	stall := clitest.NewStall(t)
	_, stalled, _ := net.SplitHostPort(stall.Host)
	cases := []struct {
		name string
		args []string
		env  []string
	}{
		{"bogus timeout", []string{"p"}, []string{"PCP_TRACE_PORT=" + refused, "PCP_TRACE_TIMEOUT=bogus"}},
		{"bogus timeout, -S 2", []string{"-S", "2", "p"}, []string{"PCP_TRACE_PORT=" + refused, "PCP_TRACE_TIMEOUT=-1"}},
		{"empty timeout", []string{"p"}, []string{"PCP_TRACE_PORT=" + refused, "PCP_TRACE_TIMEOUT="}},
		{"port in hex", []string{"-S", "2", "p"}, []string{"PCP_TRACE_PORT=" + hex(refused)}},
		{"bogus reqtimeout, refused", []string{"p"}, []string{"PCP_TRACE_PORT=" + refused, "PCP_TRACE_REQTIMEOUT=x"}},
		{"alarm first", []string{"p"}, []string{"PCP_TRACE_PORT=" + full, "PCP_TRACE_TIMEOUT=0.5"}},
		{"no alarm", []string{"p"}, []string{"PCP_TRACE_PORT=" + full, "PCP_TRACE_TIMEOUT=0"}},
		{"alarm after the wait", []string{"p"}, []string{"PCP_TRACE_PORT=" + full, "PCP_TRACE_TIMEOUT=7.5"}},
		{"no welcome", []string{"p"}, []string{"PCP_TRACE_PORT=" + stalled, "PCP_TRACE_REQTIMEOUT=0.5"}},
		{"bogus reqtimeout, no welcome", []string{"p"}, []string{"PCP_TRACE_PORT=" + stalled, "PCP_TRACE_REQTIMEOUT=1s"}},
		{"bogus reqtimeout, -S 2", []string{"-S", "2", "p"}, []string{"PCP_TRACE_PORT=" + stalled, "PCP_TRACE_REQTIMEOUT=-2"}},
		{"no welcome, -S 2", []string{"-S", "2", "p"}, []string{"PCP_TRACE_PORT=" + stalled, "PCP_TRACE_REQTIMEOUT=0.5"}},
		{"zero reqtimeout, no welcome", []string{"-S", "2", "p"}, []string{"PCP_TRACE_PORT=" + stalled, "PCP_TRACE_REQTIMEOUT=0"}},
		{"empty reqtimeout, no welcome", []string{"p"}, []string{"PCP_TRACE_PORT=" + stalled, "PCP_TRACE_REQTIMEOUT="}},
		// an empty host name is looked up as it is, and not found
		{"empty host", []string{"-S", "2", "p"}, []string{"PCP_TRACE_HOST="}},
		{"empty -h", []string{"-h", "", "-S", "2", "p"}, nil},
		{"empty -h over a host", []string{"-h", "", "p"}, []string{"PCP_TRACE_HOST=localhost"}},
		{"-h over an empty host", []string{"-h", "127.0.0.1", "-S", "2", "p"}, []string{"PCP_TRACE_HOST=", "PCP_TRACE_PORT=" + refused}},
		// port 0 itself, dialled and refused, which -S 2's lines name
		{"empty port", []string{"-S", "2", "p"}, []string{"PCP_TRACE_PORT="}},
		{"port 0", []string{"-S", "2", "p"}, []string{"PCP_TRACE_PORT=0"}},
		{"port 65536", []string{"-S", "2", "p"}, []string{"PCP_TRACE_PORT=65536"}},
	}
	if agentOnDefaultPort() {
		t.Log("something listens on 127.0.0.1:4323: the bad ports' cases are left out")
	} else {
		cases = append(cases, []struct {
			name string
			args []string
			env  []string
		}{
			{"bogus port", []string{"p"}, []string{"PCP_TRACE_PORT=bogus"}},
			{"negative port", []string{"p"}, []string{"PCP_TRACE_PORT=-1", "PCP_TRACE_TIMEOUT=x"}},
		}...)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			env := append([]string{"PCP_TRACE_HOST=127.0.0.1", "PATH=/usr/bin:/bin"}, c.env...)
			type result struct {
				out  string
				code int
			}
			run := func(bin string) result {
				cmd := exec.Command(bin, c.args...)
				cmd.Env = env
				out, err := cmd.CombinedOutput()
				code := 0
				if ee, ok := err.(*exec.ExitError); ok {
					code = ee.ExitCode()
				} else if err != nil {
					t.Error(err)
				}
				return result{string(normaliseFD(out)), code}
			}
			done := make(chan result)
			go func() { done <- run(theirs) }()
			o := run(ours)
			p := <-done
			if o != p {
				t.Errorf("%v %v:\nours   (exit %d): %q\nPCP's  (exit %d): %q", c.env, c.args, o.code, o.out, p.code, p.out)
			}
		})
	}
}

// closedPort is a port on 127.0.0.1 that nothing listens on (one just
// let go: another may take it, but not a trace agent's welcome).
func closedPort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	ln.Close()
	return port
}

func hex(port string) string {
	n, _ := strconv.Atoi(port)
	return "0x" + strconv.FormatInt(int64(n), 16)
}

// agentOnDefaultPort says whether a trace agent (or anything) answers on
// this host's port 4323, where a bad PCP_TRACE_PORT sends both programs.
func agentOnDefaultPort() bool {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := (&net.Dialer{}).DialContext(ctx, "tcp", "127.0.0.1:4323")
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// fdNumber is the descriptor libpcp_trace names in its message about the
// welcome it did not read: the socket's, whose number differs in a Go
// program.
var fdNumber = regexp.MustCompile(`fd=[0-9]+`)

func normaliseFD(b []byte) []byte { return fdNumber.ReplaceAll(b, []byte("fd=N")) }
