package testbed

import (
	"net"
	"os"
	"path/filepath"
	"testing"
)

// TestListeners reads the kernel's table format: only listening
// sockets on the port, whatever their address.
func TestListeners(t *testing.T) {
	table := `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000:10EA 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 111 1 0000000000000000 100 0 0 10 0
   1: 0100007F:10EA 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 222 1 0000000000000000 100 0 0 10 0
   2: 0100007F:10EA 0100007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 333 1 0000000000000000 20 4 30 10 -1
   3: 00000000:0050 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 444 1 0000000000000000 100 0 0 10 0
   4: 00000000:110EA 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 555 1 0000000000000000 100 0 0 10 0
`
	path := filepath.Join(t.TempDir(), "tcp")
	if err := os.WriteFile(path, []byte(table), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := listeners(path, 4330)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || !got["111"] || !got["222"] {
		t.Errorf("listeners on 4330: %v, want 111 and 222", got)
	}
	if got, _ := listeners(path, 80); len(got) != 1 || !got["444"] {
		t.Errorf("listeners on 80: %v, want 444", got)
	}
}

// TestSplitPort: a process listening on IPv4 is not split; one
// listening on the port over IPv6 only is; a port it does not listen on
// at all is not.
func TestSplitPort(t *testing.T) {
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		if _, err := os.Stat(table); err != nil {
			t.Skip("no socket table:", err)
		}
	}
	l4, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l4.Close()
	port := l4.Addr().(*net.TCPAddr).Port
	if split, err := splitPort(os.Getpid(), port); err != nil || split {
		t.Errorf("IPv4 listener on %d: split %v, %v", port, split, err)
	}
	l6, err := net.Listen("tcp6", "[::1]:0")
	if err != nil {
		t.Skip("no IPv6 loopback:", err)
	}
	defer l6.Close()
	port6 := l6.Addr().(*net.TCPAddr).Port
	if split, err := splitPort(os.Getpid(), port6); err != nil || !split {
		t.Errorf("IPv6-only listener on %d: split %v, %v", port6, split, err)
	}
	l6.Close()
	if split, err := splitPort(os.Getpid(), port6); err != nil || split {
		t.Errorf("nothing listening on %d: split %v, %v", port6, split, err)
	}
}
