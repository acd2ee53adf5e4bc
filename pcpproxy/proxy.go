package pcpproxy

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// The two greetings of the handshake, as libpcp's connect.c and pmproxy's
// pcp.c write them.
const (
	ClientHello = "pmproxy-client 1\n"
	ServerHello = "pmproxy-server 1\n"
)

// maxTarget bounds the "host port" line: a host name (MAXHOSTNAMELEN,
// 64) with room for an address, a space and a port, as pmproxy's own
// bound does.
const maxTarget = 1024

// Options are a proxy's settings; zero values take the defaults.
type Options struct {
	// Dial connects to pmcd; nil uses a net.Dialer.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// HandshakeTimeout bounds the greeting and target line (default 10s).
	HandshakeTimeout time.Duration
	// DialTimeout bounds the connection to pmcd (default 5s, libpcp's
	// PMCD_CONNECT_TIMEOUT).
	DialTimeout time.Duration
	// IdleTimeout, when set, ends a relay with no traffic either way for
	// that long.
	IdleTimeout time.Duration
}

// HandshakeError is a client that did not speak the proxy's handshake.
type HandshakeError struct{ Msg string }

func (e *HandshakeError) Error() string { return "pcpproxy: " + e.Msg }

// Handle serves one client connection, whose first bytes may already
// have been read into r (nil reads from c): the handshake, the dial, then
// the relay until either side closes or ctx ends. c is closed on return.
func Handle(ctx context.Context, c net.Conn, r *bufio.Reader, opts Options) error {
	defer c.Close()
	if r == nil {
		r = bufio.NewReaderSize(c, 4096)
	}
	hs := opts.HandshakeTimeout
	if hs <= 0 {
		hs = 10 * time.Second
	}
	_ = c.SetDeadline(time.Now().Add(hs))
	hello := make([]byte, len(ClientHello))
	if _, err := io.ReadFull(r, hello); err != nil {
		return &HandshakeError{"no greeting: " + err.Error()}
	}
	if string(hello) != ClientHello {
		return &HandshakeError{fmt.Sprintf("bad greeting %q", hello)}
	}
	if _, err := io.WriteString(c, ServerHello); err != nil {
		return err
	}
	host, port, err := readTarget(r)
	if err != nil {
		return err
	}
	dt := opts.DialTimeout
	if dt <= 0 {
		dt = 5 * time.Second
	}
	dctx, cancel := context.WithTimeout(ctx, dt)
	defer cancel()
	dial := opts.Dial
	if dial == nil {
		dial = (&net.Dialer{}).DialContext
	}
	pmcd, err := dial(dctx, "tcp", net.JoinHostPort(host, strconv.Itoa(port)))
	if err != nil {
		return fmt.Errorf("pcpproxy: connecting to pmcd on %s port %d: %w", host, port, err)
	}
	defer pmcd.Close()
	_ = c.SetDeadline(time.Time{})
	return relay(ctx, c, r, pmcd, opts.IdleTimeout)
}

// readTarget reads "host port\n" as pmproxy parses it: one space, a port
// in decimal, nothing else.
func readTarget(r *bufio.Reader) (string, int, error) {
	var line []byte
	for {
		b, err := r.ReadByte()
		if err != nil {
			return "", 0, &HandshakeError{"no target: " + err.Error()}
		}
		if b == '\n' {
			break
		}
		if len(line) >= maxTarget {
			return "", 0, &HandshakeError{"target line too long"}
		}
		line = append(line, b)
	}
	host, port, ok := strings.Cut(string(line), " ")
	if !ok || host == "" || strings.Contains(port, " ") {
		return "", 0, &HandshakeError{fmt.Sprintf("bad target %q", line)}
	}
	n, err := strconv.ParseUint(port, 10, 16)
	if err != nil {
		return "", 0, &HandshakeError{fmt.Sprintf("bad port in target %q", line)}
	}
	return host, int(n), nil
}

// relay copies both ways until one side ends, then closes both.
func relay(ctx context.Context, client net.Conn, fromClient *bufio.Reader, pmcd net.Conn, idle time.Duration) error {
	var once sync.Once
	stop := func() {
		once.Do(func() {
			client.Close()
			pmcd.Close()
		})
	}
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			stop()
		case <-done:
		}
	}()
	errc := make(chan error, 2)
	go func() { errc <- copyIdle(pmcd, fromClient, client, pmcd, idle); stop() }()
	go func() { errc <- copyIdle(client, pmcd, pmcd, client, idle); stop() }()
	err1, err2 := <-errc, <-errc
	if ctx.Err() != nil {
		return nil
	}
	return errors.Join(quiet(err1), quiet(err2))
}

// copyIdle copies src to dst, pushing both connections' deadlines on with
// each read when idle is set.
func copyIdle(dst io.Writer, src io.Reader, a, b net.Conn, idle time.Duration) error {
	buf := make([]byte, 32<<10)
	for {
		if idle > 0 {
			d := time.Now().Add(idle)
			_ = a.SetReadDeadline(d)
			_ = b.SetReadDeadline(d)
		}
		n, err := src.Read(buf)
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return werr
			}
		}
		if err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// quiet drops the errors of a relay closed from the other side.
func quiet(err error) error {
	if err == nil || errors.Is(err, net.ErrClosed) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe) || errors.Is(err, syscall.ECONNRESET) {
		return nil
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return nil
	}
	return err
}
