package sigfrom

import (
	"errors"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"testing"
)

// child runs the test named run in a child test binary with
// GOPCP_SIGFROM_CHILD set to what, and returns the signal that ended it
// (0 if none) and its exit status.
func child(t *testing.T, run, what string) (syscall.Signal, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+run+"$")
	cmd.Env = append(os.Environ(), "GOPCP_SIGFROM_CHILD="+what)
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if ws.Signaled() {
		return ws.Signal(), 0
	}
	return 0, ws.ExitStatus()
}

// TestAsC: after AsC, each signal of Ending sent to the process ends it
// by that signal, where without AsC the runtime ignores SIGUSR1; Catch
// hands a signal to signal.Notify again and DefaultAction takes it back;
// Die ends the process by a signal it caught.
func TestAsC(t *testing.T) {
	if len(Ending) == 0 {
		t.Skip("no signals to give their default action on this platform")
	}
	if what := os.Getenv("GOPCP_SIGFROM_CHILD"); what != "" {
		runChild(t, what)
		return
	}
	if s, code := child(t, "TestAsC", "plain"); s != 0 || code != 3 {
		t.Errorf("without AsC, SIGUSR1: ended by %v, exit %d; want exit 3 after surviving it", s, code)
	}
	for _, sig := range []syscall.Signal{syscall.SIGUSR1, syscall.SIGALRM, syscall.SIGXFSZ, syscall.SIGPIPE, syscall.SIGQUIT, 40} {
		if s, _ := child(t, "TestAsC", "asC "+sig.String()); s != sig {
			t.Errorf("after AsC, %v ended the child by %v", sig, s)
		}
	}
	if s, code := child(t, "TestAsC", "catch"); s != syscall.SIGUSR1 {
		t.Errorf("caught, then given back its default action: ended by %v, exit %d; want SIGUSR1", s, code)
	}
	if s, code := child(t, "TestAsC", "die"); s != syscall.SIGUSR2 {
		t.Errorf("Die(SIGUSR2) after catching it: ended by %v, exit %d", s, code)
	}
}

func runChild(t *testing.T, what string) {
	switch {
	case what == "plain":
		raise(syscall.SIGUSR1)
		os.Exit(3)
	case what == "catch":
		if err := AsC(); err != nil {
			t.Fatal(err)
		}
		ch := make(chan os.Signal, 1)
		signal.Notify(ch, syscall.SIGUSR1)
		Catch(syscall.SIGUSR1)
		raise(syscall.SIGUSR1)
		<-ch
		DefaultAction(syscall.SIGUSR1)
		signal.Stop(ch)
		raise(syscall.SIGUSR1)
		os.Exit(4)
	case what == "die":
		if err := AsC(); err != nil {
			t.Fatal(err)
		}
		ch := make(chan os.Signal, 1)
		signal.Notify(ch, syscall.SIGUSR2)
		Catch(syscall.SIGUSR2)
		raise(syscall.SIGUSR2)
		Die((<-ch).(syscall.Signal))
	default:
		if err := AsC(); err != nil {
			t.Fatal(err)
		}
		for _, s := range Ending {
			if "asC "+s.String() == what {
				raise(s)
			}
		}
		os.Exit(5)
	}
}
