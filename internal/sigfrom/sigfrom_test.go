package sigfrom

import (
	"errors"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"testing"
	"time"
)

// wait receives one signal from ch, failing after a long bound (the
// machine may be loaded; nothing here depends on how long it takes).
func wait(t *testing.T, ch <-chan os.Signal) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(60 * time.Second):
		t.Fatal("no signal after 60s")
	}
}

// TestSenders sends SIGUSR1 from this process and from child processes,
// one at a time, and checks each is recorded with its sender while
// os/signal still delivers it. The children are shells running kill, so
// the signals come from processes other than this one, as an operator's
// kill does.
func TestSenders(t *testing.T) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGUSR1)
	defer signal.Stop(ch)
	if err := Watch(syscall.SIGUSR1); errors.Is(err, ErrUnsupported) {
		t.Skip(err)
	} else if err != nil {
		t.Fatal(err)
	}
	if err := Watch(syscall.SIGUSR1); err != nil {
		t.Fatalf("watching again: %v", err)
	}
	// Work that keeps threads in system calls and the collector busy,
	// so signals land on threads of every kind.
	stop := make(chan struct{})
	defer close(stop)
	for range 4 {
		go func() {
			var sink [][]byte
			for {
				select {
				case <-stop:
					return
				default:
				}
				os.Stat("/proc/self/stat")
				time.Sleep(time.Millisecond)
				sink = append(sink, make([]byte, 4096))
				if len(sink) > 256 {
					sink = nil
				}
			}
		}()
	}
	self, uid := os.Getpid(), os.Getuid()
	const own = 1000
	for i := range own {
		if err := syscall.Kill(self, syscall.SIGUSR1); err != nil {
			t.Fatal(err)
		}
		wait(t, ch)
		if s, ok := Last(syscall.SIGUSR1); !ok || s != (Sender{self, uid}) {
			t.Fatalf("signal %d from this process: recorded %+v %v, want pid %d uid %d", i, s, ok, self, uid)
		}
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip(err)
	}
	const children = 100
	for i := range children {
		cmd := exec.Command(sh, "-c", "kill -USR1 "+itoa(self))
		if err := cmd.Run(); err != nil {
			t.Fatal(err)
		}
		wait(t, ch)
		if s, ok := Last(syscall.SIGUSR1); !ok || s != (Sender{cmd.Process.Pid, uid}) {
			t.Fatalf("signal %d from child %d: recorded %+v %v", i, cmd.Process.Pid, s, ok)
		}
	}
	t.Logf("%d signals from this process and %d from children, each with its sender", own, children)
}

// TestUnwatched: a signal not watched has no sender, and bad numbers and
// an ignored signal are refused.
func TestUnwatched(t *testing.T) {
	if _, ok := Last(syscall.SIGUSR2); ok {
		t.Error("SIGUSR2 has a sender without Watch")
	}
	signal.Ignore(syscall.SIGUSR2)
	defer signal.Reset(syscall.SIGUSR2)
	if err := Watch(syscall.SIGUSR2); err == nil {
		t.Error("Watch took an ignored signal")
	}
	if err := Watch(0); err == nil {
		t.Error("Watch(0) did not fail")
	}
	if err := Watch(65); err == nil {
		t.Error("Watch(65) did not fail")
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}
