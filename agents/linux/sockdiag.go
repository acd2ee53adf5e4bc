package linux

import (
	"encoding/binary"
	"runtime"
	"syscall"
)

// sockDiag counts TCP and UDP sockets by state through the kernel's
// socket diagnostics (NETLINK_SOCK_DIAG), which answer the same question
// as /proc/net/{tcp,tcp6,udp,udp6} for far less of the kernel's time:
// each read(2) of those files walks the socket hash tables from where the
// last read stopped, and the last read, the one that finds nothing more,
// walks them again from the start; the TCP table has a bucket for every
// few pages of memory, mostly empty, and that walk was most of a fetch's
// CPU. A dump walks the tables once, and the TCP dump in the older
// request form (TCPDIAG_GETSOCK) covers both address families in one
// walk. The sockets and states are those the files list: the socket's
// own family, TIME_WAIT sockets by their substate, pending connections
// as SYN_RECV.
type sockDiag struct {
	fd     int
	opened bool
	// failing is set from a failed dump to the next that succeeds; the
	// files serve meanwhile, and wait more counts the fetches left
	// before the next try, so that one timeout on a loaded machine does
	// not give up the cheaper path for good, nor a kernel without it
	// cost a failed request at every fetch.
	failing bool
	wait    int
	seq     uint32
	req     []byte
	buf     []byte
}

const (
	netlinkSockDiag = 4  // NETLINK_SOCK_DIAG
	tcpDiagGetSock  = 18 // TCPDIAG_GETSOCK: struct inet_diag_req
	sockDiagByFam   = 20 // SOCK_DIAG_BY_FAMILY: struct inet_diag_req_v2
	nlmsgNoop       = 1
	nlmsgError      = 2
	nlmsgDone       = 3
	nlmsgOverrun    = 4
	nlmHeader       = 16
	// diagBuf holds any message batch: the kernel builds a dump's
	// batches no larger than 32 KiB.
	diagBuf = 64 << 10
	// diagRetryAfter is how many counts of sockets the files make after
	// a failed dump before the next try.
	diagRetryAfter = 100
	// maxDiagReads bounds one dump (about two million sockets).
	maxDiagReads = 1 << 13
	// tcpDiagStates asks for TCP states 1 to 12 (12 being a pending
	// connection), not 13: newer kernels answer that with sockets that
	// are bound and nothing more, which the files do not list.
	tcpDiagStates = 1<<13 - 2
)

// usable says whether to try a dump now, counting down the fetches
// after a failure.
func (s *sockDiag) usable() bool {
	if s.wait > 0 {
		s.wait--
		return false
	}
	return true
}

// counts are a dump's sockets by family (0 IPv4, 1 IPv6) and state.
type diagCounts [2][16]uint64

// tcp counts the TCP sockets of both families by state.
func (s *sockDiag) tcp(c *diagCounts) error {
	// struct inet_diag_req: family, src_len, dst_len, ext, the 48-byte
	// socket id, states, dbs.
	s.request(tcpDiagGetSock, 60)
	binary.NativeEndian.PutUint32(s.req[nlmHeader+52:], tcpDiagStates)
	return s.dump(c)
}

// udp counts the UDP sockets of family (AF_INET or AF_INET6) by state.
func (s *sockDiag) udp(family byte, c *diagCounts) error {
	// struct inet_diag_req_v2: family, protocol, ext, pad, states, the
	// 48-byte socket id.
	s.request(sockDiagByFam, 56)
	s.req[nlmHeader] = family
	s.req[nlmHeader+1] = syscall.IPPROTO_UDP
	binary.NativeEndian.PutUint32(s.req[nlmHeader+4:], ^uint32(0))
	return s.dump(c)
}

// request builds a dump request of type typ with a zeroed body of n
// bytes.
func (s *sockDiag) request(typ uint16, n int) {
	s.seq++
	s.req = append(s.req[:0], make([]byte, nlmHeader+n)...)
	binary.NativeEndian.PutUint32(s.req[0:], uint32(nlmHeader+n))
	binary.NativeEndian.PutUint16(s.req[4:], typ)
	binary.NativeEndian.PutUint16(s.req[6:], syscall.NLM_F_REQUEST|syscall.NLM_F_DUMP)
	binary.NativeEndian.PutUint32(s.req[8:], s.seq)
}

// dump sends the request and counts the answer's sockets into c.
func (s *sockDiag) dump(c *diagCounts) error {
	*c = diagCounts{}
	if err := s.open(); err != nil {
		return err
	}
	if _, err := syscall.Write(s.fd, s.req); err != nil {
		return err
	}
	if len(s.buf) < diagBuf {
		s.buf = make([]byte, diagBuf)
	}
	for range maxDiagReads {
		n, err := syscall.Read(s.fd, s.buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		if n <= 0 || n >= len(s.buf) { // nothing, or perhaps cut short
			return syscall.EIO
		}
		done, err := countDiag(s.buf[:n], s.seq, c)
		if done || err != nil {
			return err
		}
	}
	return syscall.EFBIG
}

// countDiag counts the inet_diag_msg records of one batch of netlink
// messages answering request seq, and says whether the dump is done.
func countDiag(b []byte, seq uint32, c *diagCounts) (done bool, err error) {
	for len(b) > 0 {
		if len(b) < nlmHeader {
			return false, syscall.EIO
		}
		n := int(binary.NativeEndian.Uint32(b[0:]))
		if n < nlmHeader || n > len(b) {
			return false, syscall.EIO
		}
		typ := binary.NativeEndian.Uint16(b[4:])
		mseq := binary.NativeEndian.Uint32(b[8:])
		body := b[nlmHeader:n]
		b = b[min((n+3)&^3, len(b)):]
		if mseq != seq {
			continue // a batch left from an earlier, failed dump
		}
		switch typ {
		case nlmsgDone:
			return true, nil
		case nlmsgError:
			if len(body) >= 4 {
				if e := int32(binary.NativeEndian.Uint32(body)); e < 0 {
					return true, syscall.Errno(-e)
				}
			}
			return true, syscall.EIO
		case nlmsgNoop, nlmsgOverrun:
			continue
		}
		if len(body) < 2 { // inet_diag_msg starts family, state
			return false, syscall.EIO
		}
		fam := 0
		switch body[0] {
		case syscall.AF_INET:
		case syscall.AF_INET6:
			fam = 1
		default:
			continue
		}
		if st := body[1]; int(st) < len(c[fam]) {
			c[fam][st]++
		}
	}
	return false, nil
}

// open makes the netlink socket, once, with a receive timeout so that a
// kernel that never finishes a dump cannot hold a fetch. The socket is
// closed when the agent is dropped (tests make many).
func (s *sockDiag) open() error {
	if s.opened {
		return nil
	}
	fd, err := syscall.Socket(syscall.AF_NETLINK, syscall.SOCK_DGRAM|syscall.SOCK_CLOEXEC, netlinkSockDiag)
	if err != nil {
		return err
	}
	tv := syscall.Timeval{Sec: 5}
	if err := syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv); err != nil {
		syscall.Close(fd)
		return err
	}
	s.fd, s.opened = fd, true
	runtime.AddCleanup(s, func(fd int) { syscall.Close(fd) }, fd)
	return nil
}
