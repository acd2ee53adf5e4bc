package pmval

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// TestSignalWhileStopped stops a replay writing to a pipe being read
// (SIGSTOP), reads what the pipe holds, then sends SIGTERM and SIGCONT.
// PCP's pmval, which writes line by line, holds nothing back: it ends
// with exactly what it had written when stopped, up to a line's end, so
// every line it finished before a signal is written. Ours writes the
// lines it had gathered (and any sample it finishes before it sees the
// signal; nothing if it had just written a block) and ends by the signal
// with the start of the whole output up to a line's end. (That the
// gathered lines are all written even when the signal lands inside a
// write is TestSignalInWriteWritesWaitingLines.)
func TestSignalWhileStopped(t *testing.T) {
	for side, bin := range both(t) {
		full := fullOutput(t, bin, bigReplay())
		p := start(t, bin, bigReplay()...)
		head := make([]byte, 100<<10)
		if _, err := io.ReadFull(p.r, head); err != nil {
			t.Fatal(err)
		}
		pid := p.cmd.Process.Pid
		p.cmd.Process.Signal(syscall.SIGSTOP)
		waitStopped(t, pid)
		held := make([]byte, pipeHolds(t, p.r))
		if _, err := io.ReadFull(p.r, held); err != nil {
			t.Fatal(err)
		}
		head = append(head, held...)
		p.cmd.Process.Signal(syscall.SIGTERM)
		p.cmd.Process.Signal(syscall.SIGCONT)
		rest, err := io.ReadAll(p.r)
		if err != nil {
			t.Fatal(err)
		}
		got := append(head, rest...)
		if s := signalOf(t, p.cmd); s != syscall.SIGTERM {
			t.Errorf("%s: ended by %v, not SIGTERM", side, s)
		}
		if !bytes.HasPrefix(full, got) || len(got) == len(full) || !bytes.HasSuffix(got, []byte("\n")) {
			t.Errorf("%s: %d bytes, not the start of the whole %d up to a line's end (ends %q)",
				side, len(got), len(full), got[max(0, len(got)-40):])
		}
		if side == "PCP" && len(rest) != 0 {
			t.Errorf("PCP's pmval wrote %d bytes after it was stopped: it held lines back", len(rest))
		}
	}
}

// waitStopped waits until every thread of process pid is stopped, so
// that what it wrote to its pipe is all there.
func waitStopped(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/stat", pid))
		stopped := len(tasks) > 0
		for _, f := range tasks {
			b, _ := os.ReadFile(f)
			// the state follows the command's closing parenthesis
			s := string(b)
			if i := strings.LastIndexByte(s, ')'); i < 0 || !strings.HasPrefix(s[i+1:], " T") {
				stopped = false
			}
		}
		if stopped {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("process %d never stopped", pid)
}

// pipeHolds is how many bytes r's pipe holds (FIONREAD).
func pipeHolds(t *testing.T, r *os.File) int {
	t.Helper()
	var n int32
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, r.Fd(), syscall.TIOCINQ, uintptr(unsafe.Pointer(&n))); errno != 0 {
		t.Fatal(errno)
	}
	return int(n)
}
