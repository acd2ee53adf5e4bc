//go:build linux

package pmapi

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"os"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// dialPMCD connects to pmcd as libpcp does: a non-blocking connect to
// each of the host's addresses at once, then a wait of at most timeout
// (zero: no limit) for one of them to finish. A connection that has
// finished by the first look is taken however short the timeout: on
// loopback the connect is done before connect(2) returns, so a wait of a
// microsecond still connects, where Go's dialer would not even try once
// its deadline has passed. ctx ends the wait early and bounds the name
// lookup, which the timeout does not (as in libpcp). Errors are errnos,
// or timeouts, for dialError.
func dialPMCD(ctx context.Context, network, addr string, timeout time.Duration) (net.Conn, error) {
	start := time.Now()
	sas, err := sockaddrs(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	var pend []*pendingConn
	defer func() {
		for _, p := range pend {
			p.close()
		}
	}()
	for _, sa := range sas {
		if p := startConnect(sa); p != nil {
			pend = append(pend, p)
		}
	}
	if len(pend) == 0 {
		// libpcp gives this whatever stopped each connect at once
		return nil, syscall.ECONNREFUSED
	}
	if !anyDone(pend) {
		if err := waitAny(ctx, pend, start, timeout); err != nil {
			return nil, err
		}
	}
	// Like select, take the first address (in lookup order) that has
	// connected, else report the last one that failed.
	var failed error
	for _, p := range pend {
		switch {
		case p.done && p.err == nil:
			return p.conn()
		case p.done:
			failed = p.err
		}
	}
	if failed == nil {
		failed = os.ErrDeadlineExceeded
	}
	return nil, failed
}

// sockaddrs resolves addr as net.Dial does for network ("tcp": host and
// port, every address of the host; "unix": a path).
func sockaddrs(ctx context.Context, network, addr string) ([]syscall.Sockaddr, error) {
	if network == "unix" {
		return []syscall.Sockaddr{&syscall.SockaddrUnix{Name: addr}}, nil
	}
	host, portStr, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	port, err := strconv.Atoi(portStr)
	if err != nil || port < 0 || port > 0xffff {
		return nil, &net.AddrError{Err: "invalid port", Addr: addr}
	}
	var ips []netip.Addr
	if ip, err := netip.ParseAddr(host); err == nil {
		ips = []netip.Addr{ip}
	} else if ips, err = net.DefaultResolver.LookupNetIP(ctx, "ip", host); err != nil {
		return nil, err
	}
	sas := make([]syscall.Sockaddr, 0, len(ips))
	for _, ip := range ips {
		ip = ip.Unmap()
		if ip.Is4() {
			sas = append(sas, &syscall.SockaddrInet4{Port: port, Addr: ip.As4()})
		} else {
			sa := &syscall.SockaddrInet6{Port: port, Addr: ip.As16()}
			if z := ip.Zone(); z != "" {
				// an interface's name or, as getaddrinfo takes it, its index
				if ifi, err := net.InterfaceByName(z); err == nil {
					sa.ZoneId = uint32(ifi.Index)
				} else if n, err := strconv.ParseUint(z, 10, 32); err == nil {
					sa.ZoneId = uint32(n)
				}
			}
			sas = append(sas, sa)
		}
	}
	return sas, nil
}

// pendingConn is one non-blocking connect under way.
type pendingConn struct {
	f    *os.File // the socket, in the runtime's poller while it waits
	done bool     // finished, err saying how
	err  error
}

// startConnect makes a socket for sa and starts connecting it; nil when
// either fails at once (libpcp moves on to the next address then).
func startConnect(sa syscall.Sockaddr) *pendingConn {
	family := syscall.AF_UNIX
	switch sa.(type) {
	case *syscall.SockaddrInet4:
		family = syscall.AF_INET
	case *syscall.SockaddrInet6:
		family = syscall.AF_INET6
	}
	fd, err := syscall.Socket(family, syscall.SOCK_STREAM|syscall.SOCK_NONBLOCK|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	if family == syscall.AF_INET6 {
		// as libpcp: an IPv6 address is not reached over IPv4
		syscall.SetsockoptInt(fd, syscall.IPPROTO_IPV6, syscall.IPV6_V6ONLY, 1)
	}
	p := &pendingConn{}
	switch err := syscall.Connect(fd, sa); err {
	case nil:
		p.done = true
	case syscall.EINPROGRESS, syscall.EINTR:
		// finishes (or fails) in the background
	default:
		syscall.Close(fd)
		return nil
	}
	p.f = os.NewFile(uintptr(fd), "pmcd")
	return p
}

// anyDone looks once at every connect still under way, as select's first
// pass does, reporting whether any has finished.
func anyDone(pend []*pendingConn) bool {
	found := false
	for _, p := range pend {
		if !p.done {
			p.check()
		}
		found = found || p.done
	}
	return found
}

// check sees whether the connect has finished without waiting: a pending
// error is the failure, a peer the success.
func (p *pendingConn) check() {
	rc, err := p.f.SyscallConn()
	if err != nil {
		p.done, p.err = true, err
		return
	}
	rc.Control(func(fd uintptr) { p.checkFD(int(fd)) })
}

func (p *pendingConn) checkFD(fd int) bool {
	soErr, err := syscall.GetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_ERROR)
	switch {
	case err != nil:
		p.done, p.err = true, err
	case soErr != 0:
		p.done, p.err = true, syscall.Errno(soErr)
	default:
		if _, err := syscall.Getpeername(fd); err == nil {
			p.done = true
		} else if err != syscall.ENOTCONN {
			p.done, p.err = true, err
		}
	}
	return p.done
}

// waitAny waits until one of the connects finishes, the timeout from start
// passes (os.ErrDeadlineExceeded) or ctx is done (its error).
func waitAny(ctx context.Context, pend []*pendingConn, start time.Time, timeout time.Duration) error {
	var deadline time.Time
	if timeout > 0 {
		deadline = start.Add(timeout)
		if !time.Now().Before(deadline) {
			return os.ErrDeadlineExceeded
		}
	}
	stopAll := func(t time.Time) {
		for _, p := range pend {
			p.f.SetWriteDeadline(t)
		}
	}
	stopAll(deadline)
	stop := context.AfterFunc(ctx, func() { stopAll(time.Unix(1, 0)) })
	defer stop()
	var (
		once sync.Once
		wg   sync.WaitGroup
	)
	for _, p := range pend {
		wg.Go(func() {
			rc, err := p.f.SyscallConn()
			if err == nil {
				err = rc.Write(func(fd uintptr) bool { return p.checkFD(int(fd)) })
			}
			if err == nil || !errors.Is(err, os.ErrDeadlineExceeded) {
				if err != nil && !p.done {
					p.done, p.err = true, err
				}
				// the first to finish ends every other wait
				once.Do(func() { stopAll(time.Unix(1, 0)) })
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	// what else finished meanwhile counts too, as in select's answer
	if anyDone(pend) {
		return nil
	}
	return os.ErrDeadlineExceeded
}

// conn makes the finished connection a net.Conn, which then owns the
// socket.
func (p *pendingConn) conn() (net.Conn, error) {
	p.f.SetWriteDeadline(time.Time{})
	c, err := net.FileConn(p.f)
	if err != nil {
		return nil, err
	}
	return c, nil
}

func (p *pendingConn) close() {
	if p.f != nil {
		p.f.Close()
	}
}
