package childproc

import (
	"os/exec"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// TestStartOutlivesEndedThreads: children with a parent-death signal
// started through Start live on when the threads of the goroutines that
// asked for them end (goroutines that lock their threads and return).
// With cmd.Start in its place the kernel killed 9 children of 10.
func TestStartOutlivesEndedThreads(t *testing.T) {
	var cmds []*exec.Cmd
	t.Cleanup(func() {
		for _, cmd := range cmds {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	for range 5 {
		cmd := exec.Command("sleep", "30")
		cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		started := make(chan error)
		go func() {
			runtime.LockOSThread() // never unlocked: this thread ends here
			started <- Start(cmd)
		}()
		if err := <-started; err != nil {
			t.Skip("no sleep:", err)
		}
		cmds = append(cmds, cmd)
	}
	// The kernel's signal comes a little after a thread has gone: look
	// for a second (a slow machine can only make this pass wrongly, never
	// fail wrongly).
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		for i, cmd := range cmds {
			var ws syscall.WaitStatus
			if pid, _ := syscall.Wait4(cmd.Process.Pid, &ws, syscall.WNOHANG, nil); pid != 0 {
				t.Fatalf("child %d ended: %v", i, ws)
			}
		}
	}
}
