package clitest

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// FullListener is a TCP listener whose queue of connections is full and
// never taken: a client's connect to it is not answered (the kernel
// drops its SYN), so the client waits in connect for as long as its
// timeout and the kernel's SYN retries let it. Connecting is a Ready for
// a program waiting there.
type FullListener struct {
	Port int
}

// NewFullListener starts a FullListener on 127.0.0.1 for t's life.
func NewFullListener(t testing.TB) *FullListener {
	t.Helper()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	// A backlog of 0 holds one connection not yet accepted.
	if err := syscall.Listen(fd, 0); err != nil {
		t.Fatal(err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		t.Fatal(err)
	}
	f := &FullListener{Port: sa.(*syscall.SockaddrInet4).Port}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(f.Port))
	// Connections until one is not answered: that one's SYN was
	// dropped, so the queue is full. The bound on each is how long an
	// answered connect may take on a loaded machine, and only ends the
	// filling.
	for range 4 {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		c, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
		cancel()
		if err != nil {
			break
		}
		t.Cleanup(func() { c.Close() })
	}
	return f
}

// Connecting says whether a socket on this host waits for the listener
// to answer its connect (SYN_SENT to the listener's port): the program
// under test's, as nothing else connects to it once it is full.
func (f *FullListener) Connecting(_ []byte, pid int) bool {
	file, err := os.Open(fmt.Sprintf("/proc/%d/net/tcp", pid))
	if err != nil {
		return false
	}
	defer file.Close()
	want := fmt.Sprintf(":%04X", f.Port)
	s := bufio.NewScanner(file)
	for s.Scan() {
		// sl local_address rem_address st ...
		fields := strings.Fields(s.Text())
		if len(fields) > 3 && strings.HasSuffix(fields[2], want) && fields[3] == "02" {
			return true
		}
	}
	return false
}

// HasChild is a Ready for a program that waits for a child it started
// (system(3)'s shell). Any of its threads may have started it (a Go
// program's), and /proc lists a child under that thread only.
func HasChild(_ []byte, pid int) bool {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	for _, f := range tasks {
		if b, err := os.ReadFile(f); err == nil && len(strings.TrimSpace(string(b))) > 0 {
			return true
		}
	}
	return false
}

// Ignores says whether pid ignores sig (its SigIgn in /proc).
func Ignores(pid int, sig syscall.Signal) bool {
	m, _, ok := statusMasks(pid)
	return ok && m["SigIgn"]&sigBit(sig) != 0
}

// InSystem is a Ready for a program waiting in system(3): it has a child
// and ignores SIGINT, as system ignores it in its caller while the
// command runs (from before the child starts in C; a Go program can
// ignore it only once the child has started, so that the child does not
// inherit it ignored).
func InSystem(out []byte, pid int) bool {
	return HasChild(out, pid) && Ignores(pid, syscall.SIGINT)
}
