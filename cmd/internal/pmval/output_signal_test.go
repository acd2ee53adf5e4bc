package pmval

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runChild runs the test named by run in a child test binary with
// GOPCP_PMVAL_SIGNAL_CHILD set, and returns the signal that ended it and
// its stdout.
func runChild(t *testing.T, run string) (syscall.Signal, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+run+"$")
	cmd.Env = append(os.Environ(), "GOPCP_PMVAL_SIGNAL_CHILD=1")
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return signalOf(t, cmd), out.String()
}

func signalChild() bool { return os.Getenv("GOPCP_PMVAL_SIGNAL_CHILD") == "1" }

// TestExitCheckTakesAcceptedSignal is a signal that Notify has taken but
// the watcher has not yet noted when the run ends: exitCheck still ends
// the process by it. The child starts the watcher only once exitCheck
// has stopped the watch, so the signal waits in the channel past the
// stop.
func TestExitCheckTakesAcceptedSignal(t *testing.T) {
	if signalChild() {
		o := newOutput(os.Stdout, true)
		w := o.notify()
		o.WriteString("a line\n")
		syscall.Kill(syscall.Getpid(), syscall.SIGTERM)
		for len(w.ch) == 0 {
			runtime.Gosched()
		}
		go func() {
			<-w.stop
			w.run()
		}()
		o.Flush()
		o.exitCheck()
		t.Fatal("exitCheck returned after a signal")
	}
	if s, out := runChild(t, "TestExitCheckTakesAcceptedSignal"); s != syscall.SIGTERM || out != "a line\n" {
		t.Errorf("ended by %v with %q written", s, out)
	}
}

// TestExitCheckEndsWatcher: without a signal, exitCheck returns with the
// watcher's goroutine ended and the signals given back.
func TestExitCheckEndsWatcher(t *testing.T) {
	o := newOutput(io.Discard, true)
	o.watchSignals()
	w := o.watch
	if w == nil {
		t.Skip("SIGINT, SIGTERM and SIGHUP are all ignored here")
	}
	o.exitCheck()
	select {
	case <-w.ended:
	default:
		t.Fatal("the watcher still runs after exitCheck")
	}
	if o.watch != nil || o.sig.Load() != 0 {
		t.Errorf("watch %v, signal %d after exitCheck", o.watch, o.sig.Load())
	}
}

// raiseInWrite is stdout that, at its first write, sends the process
// SIGTERM and goes on only once the handler has noted it: the signal
// lands inside a write that the pipe takes.
type raiseInWrite struct {
	o      *output
	f      *os.File
	raised bool
}

func (r *raiseInWrite) Write(p []byte) (int, error) {
	if !r.raised {
		r.raised = true
		syscall.Kill(syscall.Getpid(), syscall.SIGTERM)
		for r.o.sig.Load() == 0 {
			runtime.Gosched()
		}
		// a handler that ends the process inside any write has the
		// time to do it here; the one wanted waits, however long
		time.Sleep(10 * time.Millisecond)
	}
	return r.f.Write(p)
}

// midWriteLines is more than one write's worth of complete lines and an
// unfinished one.
func midWriteLines() (lines, unfinished string) {
	var b strings.Builder
	for i := 0; b.Len() < 3*pipeChunk; i++ {
		b.WriteString("12:00:00.000 line of the kind pmval writes, more or less\n")
	}
	return b.String(), "12:00:01.000 unfin"
}

// TestSignalInWriteWritesWaitingLines is a signal that lands while the
// run writes the first of several chunks to a pipe that takes them: every
// complete line waiting is written, as PCP's pmval, which writes line by
// line, would have written them, and the process ends by the signal.
func TestSignalInWriteWritesWaitingLines(t *testing.T) {
	lines, unfinished := midWriteLines()
	if signalChild() {
		o := newOutput(os.Stdout, true)
		o.w = &raiseInWrite{o: o, f: os.Stdout}
		o.watchSignals()
		o.WriteString(lines + unfinished)
		o.writeOut(false)
		t.Fatal("writeOut returned after a signal")
	}
	s, out := runChild(t, "TestSignalInWriteWritesWaitingLines")
	if s != syscall.SIGTERM || out != lines {
		t.Errorf("ended by %v with %d bytes written, want the %d of the complete lines", s, len(out), len(lines))
	}
}
