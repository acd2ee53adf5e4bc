package sigdefault

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
	"testing"
)

// TestHelperProcess is the child of TestRestore: it restores the
// signal's default action and sends itself the signal.
func TestHelperProcess(t *testing.T) {
	if os.Getenv("SIGDEFAULT_HELPER") != "1" {
		return
	}
	sig := syscall.SIGUSR1
	if os.Getenv("SIGDEFAULT_SIG") == "alrm" {
		sig = syscall.SIGALRM
	}
	if err := Restore(sig); err != nil {
		os.Exit(3)
	}
	syscall.Kill(os.Getpid(), sig)
	// Not reached when the kernel ends the process: the runtime's
	// handler would have let it get here.
	os.Exit(0)
}

// TestRestore: a Go program that restores SIGUSR1's or SIGALRM's default
// action is ended by the signal, as a C program is; without Restore the
// runtime's handler swallows it.
func TestRestore(t *testing.T) {
	for _, tc := range []struct {
		name string
		sig  syscall.Signal
	}{{"usr1", syscall.SIGUSR1}, {"alrm", syscall.SIGALRM}} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
		cmd.Env = append(os.Environ(), "SIGDEFAULT_HELPER=1", "SIGDEFAULT_SIG="+tc.name)
		err := cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("%s: the helper was not ended by its signal: %v", tc.name, err)
		}
		ws := ee.Sys().(syscall.WaitStatus)
		if !ws.Signaled() || ws.Signal() != tc.sig {
			t.Errorf("%s: helper ended with %v, want killed by %v", tc.name, ws, tc.sig)
		}
	}
}
