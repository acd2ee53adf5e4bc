package trace

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/gopcp/gopcp/access"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/trace"
)

// ackTimeout bounds the write of an acknowledgement: a program that stops
// reading them loses its connection rather than holding the agent.
const ackTimeout = 10 * time.Second

// clientSet bounds and tracks the connected programs.
type clientSet struct {
	mu    sync.Mutex
	max   int
	conns map[net.Conn]struct{}
}

func (s *clientSet) add(c net.Conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.conns) >= s.max {
		return false
	}
	if s.conns == nil {
		s.conns = map[net.Conn]struct{}{}
	}
	s.conns[c] = struct{}{}
	return true
}

func (s *clientSet) remove(c net.Conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.conns, c)
}

func (s *clientSet) closeAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.conns {
		c.Close()
	}
}

// Clients is how many programs are connected.
func (a *Agent) Clients() int {
	a.clients.mu.Lock()
	defer a.clients.mu.Unlock()
	return len(a.clients.conns)
}

// Serve accepts programs on ln and runs the interval timer until ctx
// ends; it then closes ln and every connection and returns once each
// goroutine it started has finished.
func (a *Agent) Serve(ctx context.Context, ln net.Listener) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	if !a.opts.ManualTicks {
		wg.Go(func() { a.runTimer(ctx) })
	}
	// The listener is closed by a goroutine Serve waits for: Accept
	// returns as soon as the close begins, and the port is free only
	// once it has finished, which Serve's caller may count on to bind
	// the port again.
	wg.Go(func() {
		<-ctx.Done()
		ln.Close()
	})
	var err error
	for {
		conn, aerr := ln.Accept()
		if aerr != nil {
			if ctx.Err() == nil {
				var ne net.Error
				if errors.As(aerr, &ne) && ne.Timeout() {
					continue
				}
				err = aerr
			}
			break
		}
		wg.Go(func() { a.serveConn(ctx, conn) })
	}
	cancel()
	a.clients.closeAll()
	wg.Wait()
	return err
}

// welcome sends the first ACK: the protocol version, or why the program
// is refused.
func (a *Agent) welcome(conn net.Conn, v int32) error {
	conn.SetWriteDeadline(time.Now().Add(ackTimeout))
	_, err := conn.Write(trace.AppendAck(nil, a.opts.PID, v))
	return err
}

func (a *Agent) serveConn(ctx context.Context, conn net.Conn) {
	defer conn.Close()
	if tc, ok := conn.(*net.TCPConn); ok {
		tc.SetNoDelay(true)
	}
	who := conn.RemoteAddr().String()
	if !a.clients.add(conn) {
		a.log.Printf("client %s refused: %d programs connected already", who, a.opts.MaxClients)
		a.welcome(conn, int32(trace.ErrConnLimit))
		return
	}
	defer a.clients.remove(conn)
	id := access.ClientOf(conn)
	if _, err := a.acl.AdmitHost(id); err != nil {
		code := trace.ErrPermission
		if errors.Is(err, pcp.ErrConnLimit) {
			code = trace.ErrConnLimit
		}
		a.log.Printf("client %s refused: %v", who, code)
		a.welcome(conn, int32(code))
		return
	}
	defer a.acl.ReleaseHost(id)
	if err := a.welcome(conn, trace.Version); err != nil {
		return
	}
	if err := a.readData(ctx, conn); err != nil {
		a.log.Printf("client %s: connection closed: %v", who, err)
	}
}

// readData takes a program's PDUs until it goes or sends something
// malformed. The error says why a connection was closed; nil is the
// program's own close.
func (a *Agent) readData(ctx context.Context, conn net.Conn) error {
	br := bufio.NewReaderSize(conn, 4096)
	var buf [trace.MaxPDULen]byte
	var ack []byte
	for ctx.Err() == nil {
		// A program may stay quiet between PDUs as long as it likes,
		// but a PDU once begun must arrive whole in PDUTimeout.
		conn.SetReadDeadline(time.Time{})
		if _, err := br.Peek(1); err != nil {
			if errors.Is(err, net.ErrClosed) || errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		conn.SetReadDeadline(time.Now().Add(a.opts.PDUTimeout))
		h, pdu, err := trace.ReadPDU(br, buf[:])
		if err != nil {
			if errors.Is(err, trace.ErrIPC) && h.Len != 0 {
				return fmt.Errorf("bad PDU length %d", h.Len)
			}
			if errors.Is(err, net.ErrClosed) || errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		if h.Type != trace.PDUData {
			return fmt.Errorf("PDU type %#x where DATA was expected", h.Type)
		}
		d, err := trace.DecodeData(pdu)
		if err != nil {
			return fmt.Errorf("bad DATA PDU: %w", err)
		}
		if d.Type < trace.TypeTransact || d.Type > trace.TypeCounter {
			return fmt.Errorf("unknown trace type %d for %q", d.Type, d.Tag)
		}
		if err := a.Record(d); err != nil {
			return fmt.Errorf("datum for %q dropped: %w", d.Tag, err)
		}
		if d.Sync {
			ack = trace.AppendAck(ack[:0], a.opts.PID, int32(d.Type))
			conn.SetWriteDeadline(time.Now().Add(ackTimeout))
			if _, err := conn.Write(ack); err != nil {
				return fmt.Errorf("ACK: %w", err)
			}
		}
	}
	return nil
}
