package tty

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"unsafe"
)

func echoing(t *testing.T, f *os.File) bool {
	t.Helper()
	tio, ok := tcget(f)
	if !ok {
		t.Fatal("tcgetattr failed")
	}
	return tio.Lflag&syscall.ECHO != 0
}

// TestIsTerminal: a pipe, a file and /dev/null (a character device) are
// not terminals and EchoOff leaves them be; a pseudo-terminal is one, and
// EchoOff turns its echo off and back on.
func TestIsTerminal(t *testing.T) {
	dir := t.TempDir()
	for _, open := range []func() (*os.File, error){
		func() (*os.File, error) {
			r, w, err := os.Pipe()
			if err == nil {
				r.Close()
			}
			return w, err
		},
		func() (*os.File, error) { return os.OpenFile(os.DevNull, os.O_WRONLY, 0) },
		func() (*os.File, error) { return os.Create(filepath.Join(dir, "f")) },
	} {
		f, err := open()
		if err != nil {
			t.Fatal(err)
		}
		if IsTerminal(f) {
			t.Errorf("%s taken for a terminal", f.Name())
		}
		EchoOff(f)()
		f.Close()
	}
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer m.Close()
	var unlock int32
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); errno != 0 {
		t.Fatalf("unlockpt: %v", errno)
	}
	if !IsTerminal(m) {
		t.Fatal("a pseudo-terminal is not taken for a terminal")
	}
	if !echoing(t, m) {
		t.Fatal("a new pseudo-terminal does not echo")
	}
	restore := EchoOff(m)
	if echoing(t, m) {
		t.Error("echo still on after EchoOff")
	}
	restore()
	if !echoing(t, m) {
		t.Error("echo not back on after the restore")
	}
}
