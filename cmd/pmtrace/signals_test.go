package main

import (
	"fmt"
	"net"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// whileParent is the loop of an -e command that lasts as long as the
// pmtrace that ran it. It asks whether its parent is still a pmtrace,
// not only whether a process of that number lives: a signal that ends
// pmtrace between system(3)'s fork and the shell's start leaves the
// shell's $PPID that of init or a subreaper, which never goes (such
// shells were seen looping, forking a sleep 20 times a second, for
// minutes after their test ended).
const whileParent = `while read c </proc/$PPID/comm && [ "$c" = pmtrace ]; do sleep 0.05; done`

// TestSignalsLikePCP sends every signal that ends a process to PCP's
// pmtrace and ours where each waits: connecting to an agent whose
// listener never takes the connection (libpcp_trace catches SIGALRM
// there), waiting for an agent's welcome that never comes, and running
// -e's command after its begin PDU went (SIGPIPE ignored from then, and
// SIGINT and SIGQUIT while system(3) runs the command).
func TestSignalsLikePCP(t *testing.T) {
	theirs, ours := pcptest.NeedTool(t, "pmtrace"), pcptest.GoCommand(t, ".")
	stall := clitest.NewStall(t)
	_, stallPort, _ := net.SplitHostPort(stall.Host)
	full := clitest.NewFullListener(t)
	agent := newRecorder(t)
	env := func(port string) []string {
		return []string{"PCP_TRACE_HOST=127.0.0.1", "PCP_TRACE_PORT=" + port,
			"PCP_TRACE_TIMEOUT=3600", "PCP_TRACE_REQTIMEOUT=3600"}
	}
	// Waiting for the welcome, each is past its connect only once SIGALRM
	// has its default action back: libpcp_trace catches it from before
	// its connect until its select for the connect returns, ours ignores
	// it around its dial, and a signal sent while the stall's accept has
	// already come but the program is still in there is lost by one and
	// not the other.
	connected := func(out []byte, pid int) bool {
		return stall.Accepted(out, pid) && clitest.DefaultAction(pid, syscall.SIGALRM)
	}
	// The command stays until pmtrace has gone, its output elsewhere so
	// that it holds no pipe of the test's open.
	waitParent := `exec >/dev/null 2>&1; ` + whileParent
	clitest.CompareSignals(t, theirs, ours, clitest.Signals, []clitest.SignalCase{
		{Name: "connecting", Args: []string{"p"}, Env: env(strconv.Itoa(full.Port)), Ready: full.Connecting},
		{Name: "no welcome", Args: []string{"p"}, Env: env(stallPort), Stall: stall, Ready: connected},
		{Name: "-e running", Args: []string{"-e", waitParent, "tx"},
			Env: env(strconv.Itoa(agent.ln.Addr().(*net.TCPAddr).Port)), Ready: clitest.InSystem},
	})
}

// TestSignalsIgnoredLikePCP: started with SIGINT and SIGQUIT ignored (a
// background command of a shell without job control), both survive
// them running -e's command, and the command is not left ignoring them.
func TestSignalsIgnoredLikePCP(t *testing.T) {
	theirs, ours := pcptest.NeedTool(t, "pmtrace"), pcptest.GoCommand(t, ".")
	agent := newRecorder(t)
	env := []string{"PCP_TRACE_HOST=127.0.0.1", "PCP_TRACE_PORT=" + strconv.Itoa(agent.ln.Addr().(*net.TCPAddr).Port)}
	// The command prints its own ignored signals (SigIgn, bits 2 and 3
	// for SIGINT and SIGQUIT) before it waits.
	cmd := `grep SigIgn /proc/self/status; exec >/dev/null 2>&1; ` + whileParent
	printed := func(out []byte, pid int) bool { return clitest.Lines(1)(out, pid) && clitest.InSystem(out, pid) }
	// glibc's system(3) spawns the command with its own internal
	// signals (32 and 33) ignored, which a Go program cannot pass on.
	mask := func(s string) string {
		v, ok := strings.CutPrefix(strings.TrimSpace(s), "SigIgn:")
		if !ok {
			return s
		}
		n, _ := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
		return fmt.Sprintf("SigIgn: %016x\n", n&^(3<<31))
	}
	clitest.CompareSignals(t, theirs, ours, []syscall.Signal{syscall.SIGINT, syscall.SIGQUIT, syscall.SIGUSR1},
		[]clitest.SignalCase{
			{Name: "-e running", Args: []string{"-e", cmd, "tx"}, Env: env, Ready: printed, Mask: mask},
			{Name: "-e running, INT and QUIT ignored", Args: []string{"-e", cmd, "tx"}, Env: env,
				Ignore: []syscall.Signal{syscall.SIGINT, syscall.SIGQUIT}, Ready: printed, Mask: mask},
		})
}
