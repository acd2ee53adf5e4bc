package sdnotify

import (
	"net"
	"path/filepath"
	"testing"
	"time"
)

// TestNotify: a message reaches a datagram socket, named by path or
// abstract ("@"), as one datagram; no path sends nothing and is no error.
func TestNotify(t *testing.T) {
	if err := Notify("", "READY=1"); err != nil {
		t.Errorf("no socket: %v", err)
	}
	abstract := "@gopcp-sdnotify-" + time.Now().Format("150405.000000000")
	for _, name := range []string{filepath.Join(t.TempDir(), "notify"), abstract} {
		addr := name
		if addr[0] == '@' {
			addr = "\x00" + addr[1:]
		}
		l, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: addr, Net: "unixgram"})
		if err != nil {
			t.Fatal(err)
		}
		if err := Notify(name, "READY=1\nMAINPID=42"); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		buf := make([]byte, 100)
		l.SetReadDeadline(time.Now().Add(time.Minute)) // bounds a broken run only
		n, err := l.Read(buf)
		l.Close()
		if err != nil || string(buf[:n]) != "READY=1\nMAINPID=42" {
			t.Errorf("%s: got %q, %v", name, buf[:n], err)
		}
	}
	if err := Notify(filepath.Join(t.TempDir(), "none"), "READY=1"); err == nil {
		t.Error("a missing socket: no error")
	}
}
