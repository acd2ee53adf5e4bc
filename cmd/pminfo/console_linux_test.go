package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// openPTY makes a pseudo-terminal: its master, and the path of its slave.
func openPTY(t *testing.T) (*os.File, string) {
	t.Helper()
	// non-blocking, so that the runtime polls it and reads take deadlines
	fd, err := syscall.Open("/dev/ptmx", syscall.O_RDWR|syscall.O_NOCTTY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		t.Fatalf("no pseudo-terminals: %v", err)
	}
	m := os.NewFile(uintptr(fd), "/dev/ptmx")
	t.Cleanup(func() { m.Close() })
	var unlock int32
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); errno != 0 {
		t.Fatalf("unlockpt: %v", errno)
	}
	var n uint32
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); errno != 0 {
		t.Fatalf("ptsname: %v", errno)
	}
	return m, "/dev/pts/" + strconv.Itoa(int(n))
}

// echoing reports whether the terminal echoes input (the master's
// TCGETS reads the slave's settings).
func echoing(t *testing.T, m *os.File) bool {
	var tio syscall.Termios
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TCGETS, uintptr(unsafe.Pointer(&tio))); errno != 0 {
		t.Fatalf("tcgetattr: %v", errno)
	}
	return tio.Lflag&syscall.ECHO != 0
}

// converse plays the user at the terminal's master until done closes:
// each prompt seen is answered, once, with its answer; a password only
// once echo is off (as a user types after the prompt: an answer typed
// before would be flushed by libpcp's TCSAFLUSH). It returns what the
// terminal showed. The polls are bounded (a tool waiting for an answer
// never given would otherwise hang the test).
func converse(t *testing.T, m *os.File, answers map[string]string, done <-chan struct{}) string {
	t.Helper()
	var shown []byte
	answered := map[string]bool{}
	buf := make([]byte, 256)
	finished := false
	for polls := 0; ; polls++ {
		if polls == 3000 {
			t.Fatalf("the tool did not end; the terminal showed %q", shown)
		}
		select {
		case <-done:
			finished = true
		default:
		}
		m.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
		n, err := m.Read(buf)
		shown = append(shown, buf[:n]...)
		for prompt, answer := range answers {
			if !answered[prompt] && bytes.HasSuffix(shown, []byte(prompt)) {
				if prompt == "Password: " && echoing(t, m) {
					continue
				}
				answered[prompt] = true
				if _, err := m.WriteString(answer + "\n"); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("reading the terminal: %v", err)
		}
		if finished && n == 0 {
			return string(shown)
		}
	}
}

// TestConsolePromptsLikePCP: with neither user name nor password in the
// host specification, PCP's pminfo and ours ask on the terminal
// (PCP_CONSOLE naming a pseudo-terminal), the password without echo, and
// authenticate with the answers: the same prompts, echo and output.
func TestConsolePromptsLikePCP(t *testing.T) {
	s := testbed.NewSASL(t, "plain login scram-sha-256", "pw")
	bed := testbed.StartPMCD(t, s.Options())
	for _, c := range []struct{ spec, pass string }{
		{bed.Host() + "?userauth", "pw"},
		{bed.Host() + "?userauth", "wrong"},
		{bed.Host(), "pw"}, // pmcd demands credentials
		{bed.Host() + "?method=login", "pw"},
	} {
		args := []string{"-h", c.spec, "-f", "pmcd.numagents"}
		answers := map[string]string{"Username: ": s.User, "Password: ": c.pass}

		m, slave := openPTY(t)
		hold, err := os.OpenFile(slave, os.O_RDWR|syscall.O_NOCTTY, 0) // the master reads EIO with no slave open
		if err != nil {
			t.Fatal(err)
		}
		cmd, err := bed.Command(context.Background(), "pminfo", args...)
		if err != nil {
			t.Fatal(err)
		}
		cmd.Env = append(cmd.Env, "PCP_CONSOLE="+slave)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		var wantOut, wantErr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &wantOut, &wantErr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		wantShown := converse(t, m, answers, done)
		hold.Close()

		m, slave = openPTY(t)
		if hold, err = os.OpenFile(slave, os.O_RDWR|syscall.O_NOCTTY, 0); err != nil {
			t.Fatal(err)
		}
		t.Setenv("PCP_CONSOLE", slave)
		var stdout, stderr bytes.Buffer
		done = make(chan struct{})
		code := 0
		go func() {
			code = run(context.Background(), append([]string{"pminfo"}, args...), &stdout, &stderr)
			close(done)
		}()
		shown := converse(t, m, answers, done)
		hold.Close()

		line := "pminfo " + strings.Join(args, " ") + " (" + c.pass + ")"
		if shown != wantShown {
			t.Errorf("%s: the terminal showed %q, PCP's %q", line, shown, wantShown)
		}
		if !strings.Contains(wantShown, "Username: ") || strings.Contains(wantShown, c.pass+"\r") {
			t.Errorf("%s: PCP's terminal showed %q: no prompt, or the password echoed", line, wantShown)
		}
		if got, want := stdout.String()+clitest.DropNotices(stderr.String()), wantOut.String()+clitest.DropNotices(wantErr.String()); got != want {
			t.Errorf("%s:\n%s", line, clitest.Diff(want, got))
		}
		if code != cmd.ProcessState.ExitCode() {
			t.Errorf("%s: exit %d, PCP's %d", line, code, cmd.ProcessState.ExitCode())
		}
		t.Logf("%s: terminal %q, %s", line, shown, strings.TrimSpace(wantOut.String()+wantErr.String()))
	}
}
