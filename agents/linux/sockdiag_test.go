package linux

import (
	"encoding/binary"
	"errors"
	"log"
	"net"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// connCounts is what a count of sockets by state gives.
type connCounts struct {
	tcp, tcp6 [12]uint64
	udp, udp6 [2]uint64
}

// fileConns and diagConns count TCP and UDP sockets from the files and
// through socket diagnostics.
func (x *Linux) fileConns()      { x.fileTCP(); x.fileUDP() }
func (x *Linux) diagConns() bool { return x.diagTCP() && x.diagUDP() }

func (x *Linux) connCounts() connCounts {
	c := &x.conns
	return connCounts{c.tcp, c.tcp6, c.udp, c.udp6}
}

// inPrivateNet runs f on a thread of its own in a new network namespace,
// whose /proc/net is /proc/thread-self/net; ok is false when this user
// may not make one. The thread is left locked, so it ends with f.
func inPrivateNet(t *testing.T, f func()) (ok bool) {
	done := make(chan bool)
	go func() {
		defer close(done)
		runtime.LockOSThread()
		if err := syscall.Unshare(syscall.CLONE_NEWNET); err != nil {
			t.Logf("no private network namespace: %v", err)
			done <- false
			return
		}
		f()
	}()
	ok = true
	for v := range done {
		ok = v
	}
	return ok
}

// loopbackUp brings up lo, which a new network namespace has down.
func loopbackUp() error {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_DGRAM, 0)
	if err != nil {
		return err
	}
	defer syscall.Close(fd)
	var ifr ifreq
	copy(ifr.name[:], "lo")
	binary.NativeEndian.PutUint16(ifr.data[:], syscall.IFF_UP)
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), syscall.SIOCSIFFLAGS, uintptr(unsafe.Pointer(&ifr))); e != 0 {
		return e
	}
	return nil
}

// fdCloser closes a descriptor.
type fdCloser int

func (fd fdCloser) Close() error { return syscall.Close(int(fd)) }

// haveIPv6 says whether the kernel has IPv6 sockets (not so when booted
// with ipv6.disable=1).
func haveIPv6() bool {
	fd, err := syscall.Socket(syscall.AF_INET6, syscall.SOCK_DGRAM, 0)
	if err != nil {
		return false
	}
	syscall.Close(fd)
	return true
}

// socketsInEveryState makes TCP and UDP sockets of IPv4, and of IPv6 when
// ipv6 is set, in several states: listening, connected both ways, half
// closed (FIN_WAIT2 and CLOSE_WAIT), closed (TIME_WAIT), bound only,
// bound UDP and connected UDP.
func socketsInEveryState(ipv6 bool) (keep []any, err error) {
	nws := []struct{ tcp, udp, addr string }{{"tcp4", "udp4", "127.0.0.1:0"}, {"tcp6", "udp6", "[::1]:0"}}
	if !ipv6 {
		nws = nws[:1]
	}
	for _, nw := range nws {
		l, err := net.Listen(nw.tcp, nw.addr)
		if err != nil {
			return keep, err
		}
		keep = append(keep, l)
		for i := range 3 {
			c, err := net.Dial(nw.tcp, l.Addr().String())
			if err != nil {
				return keep, err
			}
			s, err := l.Accept()
			if err != nil {
				return keep, err
			}
			switch i {
			case 1: // the client closes: FIN_WAIT2 and CLOSE_WAIT
				c.Close()
				keep = append(keep, s)
			case 2: // both close, the client first: TIME_WAIT
				c.Close()
				s.Close()
			default:
				keep = append(keep, c, s)
			}
		}
		// A TCP socket bound and nothing more: not in the files, and
		// newer kernels' diagnostics list it (as CLOSE) when asked for
		// their state 13.
		fam, sa := syscall.AF_INET, syscall.Sockaddr(&syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}})
		if nw.tcp == "tcp6" {
			fam, sa = syscall.AF_INET6, &syscall.SockaddrInet6{Addr: [16]byte{15: 1}}
		}
		fd, err := syscall.Socket(fam, syscall.SOCK_STREAM, 0)
		if err != nil {
			return keep, err
		}
		keep = append(keep, fdCloser(fd))
		if err := syscall.Bind(fd, sa); err != nil {
			return keep, err
		}
		u, err := net.ListenPacket(nw.udp, nw.addr)
		if err != nil {
			return keep, err
		}
		keep = append(keep, u)
		cu, err := net.Dial(nw.udp, u.LocalAddr().String())
		if err != nil {
			return keep, err
		}
		keep = append(keep, cu)
	}
	return keep, nil
}

// bracketed counts sockets through socket diagnostics between two
// readings of the files, until the two readings agree (the sockets did
// not change meanwhile), at most tries times.
func bracketed(x *Linux, tries int) (got, want connCounts, err error) {
	for range tries {
		x.fileConns()
		before := x.connCounts()
		if !x.diagConns() {
			return got, want, errors.New("socket diagnostics failed")
		}
		got = x.connCounts()
		x.fileConns()
		if want = x.connCounts(); want == before {
			return got, want, nil
		}
	}
	return got, want, errUnsettled
}

var errUnsettled = errors.New("the sockets kept changing")

// TestSockDiagMatchesFiles: socket diagnostics count the TCP and UDP
// sockets, by state and family, that /proc/net's tables list, in a
// network namespace holding sockets in several states and nothing else.
// Without the privilege for one, the counts are compared on the host.
// On a kernel without IPv6 only IPv4 sockets are made, and IPv6 counts
// none.
func TestSockDiagMatchesFiles(t *testing.T) {
	ipv6 := haveIPv6()
	x, err := newLinux(Options{CacheDir: t.TempDir(), ProcRoot: "/proc/thread-self"})
	if err != nil {
		t.Fatal(err)
	}
	// f runs on a goroutine of its own: it reports with t.Error and
	// returns.
	compared := inPrivateNet(t, func() {
		if err := loopbackUp(); err != nil {
			t.Error(err)
			return
		}
		keep, err := socketsInEveryState(ipv6)
		defer func() {
			for _, k := range keep {
				k.(interface{ Close() error }).Close()
			}
		}()
		if err != nil {
			t.Error(err)
			return
		}
		// Closing connections moves them through states on the
		// kernel's time: compare once they have settled.
		got, want, err := bracketed(x, 1000)
		if err != nil {
			t.Error(err)
			return
		}
		if got != want {
			t.Errorf("socket diagnostics %+v\n/proc/net %+v", got, want)
		}
		c := &x.conns
		const est, listen = 1, 10
		udp6 := [2]uint64{1, 1}
		for _, s := range []*[12]uint64{&c.tcp, &c.tcp6} {
			var n uint64
			for _, v := range s {
				n += v
			}
			if s == &c.tcp6 && !ipv6 {
				if n != 0 {
					t.Errorf("tcp6 states %v without IPv6, want none", s)
				}
				udp6 = [2]uint64{}
				continue
			}
			if s[est] < 2 || s[listen] != 1 || n < 6 {
				t.Errorf("tcp states %v: want a listener, two established and the closing ones", s)
			}
		}
		if c.udp != [2]uint64{1, 1} || c.udp6 != udp6 {
			t.Errorf("udp %v udp6 %v, want one connected and one not in udp, %v in udp6", c.udp, c.udp6, udp6)
		}
	})
	if compared {
		return
	}
	x.proc = "/proc"
	got, want, err := bracketed(x, 100)
	if errors.Is(err, errUnsettled) {
		t.Skip("the host's sockets changed during each of 100 comparisons")
	}
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("socket diagnostics %+v\n/proc/net %+v", got, want)
	}
}

// TestCountDiag: a batch's messages are counted by family and state;
// others' sequence numbers, other families and no-ops are passed over;
// DONE ends the dump, an error message is its errno, and a length that
// overruns or underruns the batch is EIO.
func TestCountDiag(t *testing.T) {
	msg := func(typ uint16, seq uint32, body ...byte) []byte {
		n := nlmHeader + len(body)
		b := make([]byte, (n+3)&^3)
		binary.NativeEndian.PutUint32(b, uint32(n))
		binary.NativeEndian.PutUint16(b[4:], typ)
		binary.NativeEndian.PutUint32(b[8:], seq)
		copy(b[nlmHeader:], body)
		return b
	}
	errMsg := func(seq uint32, errno syscall.Errno) []byte {
		var e [4]byte
		binary.NativeEndian.PutUint32(e[:], uint32(-int32(errno)))
		return msg(nlmsgError, seq, e[:]...)
	}
	cat := func(bs ...[]byte) (out []byte) {
		for _, b := range bs {
			out = append(out, b...)
		}
		return out
	}
	sock := func(seq uint32, fam, state byte) []byte { return msg(tcpDiagGetSock, seq, fam, state, 0, 0, 9) }
	var want diagCounts
	want[0][1], want[0][10], want[1][6] = 2, 1, 1
	tests := []struct {
		name string
		in   []byte
		done bool
		err  error
		want diagCounts
	}{
		{"sockets", cat(sock(7, syscall.AF_INET, 1), sock(7, syscall.AF_INET, 1), sock(7, syscall.AF_INET, 10),
			sock(7, syscall.AF_INET6, 6), sock(6, syscall.AF_INET, 2), sock(7, syscall.AF_UNIX, 1),
			msg(nlmsgNoop, 7), sock(7, syscall.AF_INET, 200)), false, nil, want},
		{"done", cat(sock(7, syscall.AF_INET, 1), msg(nlmsgDone, 7, 0, 0, 0, 0), sock(7, syscall.AF_INET, 1)), true, nil, diagCounts{0: {1: 1}}},
		{"error", errMsg(7, syscall.EPERM), true, syscall.EPERM, diagCounts{}},
		{"other's error", errMsg(6, syscall.EPERM), false, nil, diagCounts{}},
		{"cut header", sock(7, syscall.AF_INET, 1)[:10], false, syscall.EIO, diagCounts{}},
		{"overrun", sock(7, syscall.AF_INET, 1)[:nlmHeader+1], false, syscall.EIO, diagCounts{}},
		{"short body", msg(tcpDiagGetSock, 7, 2), false, syscall.EIO, diagCounts{}},
	}
	for _, tt := range tests {
		var c diagCounts
		done, err := countDiag(tt.in, 7, &c)
		if done != tt.done || !errors.Is(err, tt.err) && !(err == nil && tt.err == nil) || c != tt.want {
			t.Errorf("%s: done %v, %v, %v; want %v, %v, %v", tt.name, done, err, c, tt.done, tt.err, tt.want)
		}
	}
}

// FuzzCountDiag: any batch is counted without panicking, and counts no
// more sockets than it has room for.
func FuzzCountDiag(f *testing.F) {
	f.Add([]byte{20, 0, 0, 0, 18, 0, 2, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 1, 0, 0})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		var c diagCounts
		countDiag(b, 1, &c)
		var n uint64
		for _, fam := range c {
			for _, v := range fam {
				n += v
			}
		}
		if n > uint64(len(b)/(nlmHeader+2)) {
			t.Fatalf("%d sockets from %d bytes", n, len(b))
		}
	})
}

// TestSockDiagFallback: when a dump fails, the sockets are counted from
// the files, at that fetch and the next diagRetryAfter counts without a
// try; then socket diagnostics are tried again, and used again when they
// work. A kernel that keeps refusing is reported once, and the recovery
// once.
func TestSockDiagFallback(t *testing.T) {
	var logged strings.Builder
	x, err := newLinux(Options{CacheDir: t.TempDir(), Log: log.New(&logged, "", 0)})
	if err != nil {
		t.Fatal(err)
	}
	if !x.conns.useDiag {
		t.Fatal("the agent over /proc does not use socket diagnostics")
	}
	d := &x.conns.diag
	// A socket that fails every dump (EBADF) stands for a kernel that
	// refuses or a receive that timed out.
	fail := func() { d.fd, d.opened = -1, true }
	fail()
	for round := range 2 {
		x.conns.ok["net/tcp"] = false
		x.readTCPConns()
		if !d.failing || d.wait != diagRetryAfter {
			t.Fatalf("round %d: after a failed dump failing %v, wait %d; want true, %d", round, d.failing, d.wait, diagRetryAfter)
		}
		if !x.conns.ok["net/tcp"] {
			t.Errorf("round %d: net/tcp not read from the files", round)
		}
		for i := range diagRetryAfter {
			x.readUDPConns() // the wait counts every kind's count
			if d.wait != diagRetryAfter-1-i {
				t.Fatalf("round %d: wait %d after %d counts", round, d.wait, i+1)
			}
		}
	}
	if n := strings.Count(logged.String(), "socket diagnostics failed"); n != 1 {
		t.Errorf("%d reports of the failure, want 1:\n%s", n, logged.String())
	}
	// The socket works again (a fresh one is opened): the next count
	// goes through it.
	d.opened = false
	if !x.diagTCP() || d.failing {
		t.Fatalf("socket diagnostics not used again once they work: failing %v", d.failing)
	}
	if !x.diagUDP() {
		t.Error("the UDP dump failed once the socket worked")
	}
	if n := strings.Count(logged.String(), "work again"); n != 1 {
		t.Errorf("%d reports of the recovery, want 1:\n%s", n, logged.String())
	}
}
