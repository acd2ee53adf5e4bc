package main

import (
	"bufio"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// TestSignalsLikePCP sends PCP's dbpmda and ours, each waiting for its
// next command on a pipe, the signals PCP's sets no handler for: each
// ends both by its default action, where the Go runtime would have
// ignored SIGUSR1, SIGALRM and SIGXFSZ and turned SIGQUIT into a dump.
func TestSignalsLikePCP(t *testing.T) {
	theirs, ours := pcptest.NeedTool(t, "dbpmda"), pcptest.GoCommand(t, ".")
	sigs := []syscall.Signal{syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGALRM, syscall.SIGQUIT, syscall.SIGVTALRM}
	if pcptest.NoCores(t) {
		sigs = append(sigs, syscall.SIGXFSZ, syscall.SIGABRT)
	}
	for _, sig := range sigs {
		want, got := waitingEndedBy(t, theirs, sig), waitingEndedBy(t, ours, sig)
		if want != "killed by "+sig.String() {
			t.Errorf("PCP's dbpmda and %v: %s", sig, want)
		}
		if got != want {
			t.Errorf("%v: ours %s, PCP's %s", sig, got, want)
		}
	}
}

// waitingEndedBy starts bin reading commands from a pipe, has it answer
// one (status, whose answer ends with the instance profile's line) so
// that it is waiting for the next, sends it sig and says how it ended.
func waitingEndedBy(t *testing.T, bin string, sig syscall.Signal) string {
	t.Helper()
	cmd := exec.Command(bin)
	cmd.Dir = t.TempDir()
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	io.WriteString(in, "status\n")
	r := bufio.NewReader(out)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			cmd.Process.Kill()
			cmd.Wait()
			return fmt.Sprintf("ended before its answer: %v", err)
		}
		if strings.HasPrefix(line, "Dump Instance Profile") {
			break
		}
	}
	cmd.Process.Signal(sig)
	// Ours takes the signal on a goroutine of its own before it acts on
	// it, so the end of input is held back until the program has ended
	// or plainly survived: given at once, it could be read first and the
	// program exit 0 on a loaded machine. A survivor gets it after
	// survivorWait and then ends, never leaving the test waiting.
	ended := make(chan struct{})
	go func() {
		io.Copy(io.Discard, r)
		cmd.Wait()
		close(ended)
	}()
	select {
	case <-ended:
	case <-time.After(survivorWait):
		in.Close()
		<-ended
	}
	return pcptest.HowEnded(cmd.ProcessState)
}

// survivorWait is how long a program sent a signal is given to end by it
// before its input is closed: far longer than a loaded machine takes to
// act on a signal, and spent only on a program that survives one.
const survivorWait = 30 * time.Second
