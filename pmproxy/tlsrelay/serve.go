package tlsrelay

import (
	"crypto/tls"
	"errors"
	"io"
	"net"
	"os"
	"sync"
	"syscall"
	"time"
)

// Options bound Serve: the connections relayed at once (default 4096;
// pmproxy's own maxconns bounds them first) and the wait for a
// handshake (default 10 s, pmproxy's wait for a first byte).
type Options struct {
	MaxConns         int
	HandshakeTimeout time.Duration
}

// Serve takes TLS connections from pmproxy on ctrl (a SOCK_SEQPACKET
// Unix socket): each message is the connection's first byte, already
// read by pmproxy, with two descriptors, the client's connection and
// pmproxy's end of the plaintext. It returns when ctrl ends (pmproxy
// closed it or died), once every connection it relays is closed and its
// goroutines have returned.
func Serve(ctrl *net.UnixConn, cfg *tls.Config, o Options) error {
	if o.MaxConns <= 0 {
		o.MaxConns = 4096
	}
	if o.HandshakeTimeout <= 0 {
		o.HandshakeTimeout = 10 * time.Second
	}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		conns = make(map[*relay]bool)
	)
	defer func() {
		mu.Lock()
		for r := range conns {
			r.close()
		}
		mu.Unlock()
		wg.Wait()
	}()
	buf := make([]byte, 16)
	oob := make([]byte, syscall.CmsgSpace(4*4))
	for {
		n, oobn, _, _, err := ctrl.ReadMsgUnix(buf, oob)
		if err != nil || n == 0 && oobn == 0 {
			if err == nil || errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed) {
				return nil
			}
			return err
		}
		files := receivedFiles(oob[:oobn])
		mu.Lock()
		full := len(conns) >= o.MaxConns
		mu.Unlock()
		if n != 1 || len(files) != 2 || full {
			closeFiles(files)
			continue
		}
		r, err := newRelay(files[0], files[1], buf[0])
		closeFiles(files)
		if err != nil {
			continue
		}
		mu.Lock()
		conns[r] = true
		mu.Unlock()
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.run(cfg, o.HandshakeTimeout)
			mu.Lock()
			delete(conns, r)
			mu.Unlock()
		}()
	}
}

// receivedFiles are the descriptors a message carried (none when its
// control data is not SCM_RIGHTS).
func receivedFiles(oob []byte) []*os.File {
	msgs, err := syscall.ParseSocketControlMessage(oob)
	if err != nil {
		return nil
	}
	var files []*os.File
	for _, m := range msgs {
		fds, err := syscall.ParseUnixRights(&m)
		if err != nil {
			continue
		}
		for _, fd := range fds {
			syscall.CloseOnExec(fd)
			files = append(files, os.NewFile(uintptr(fd), "relayed"))
		}
	}
	return files
}

func closeFiles(files []*os.File) {
	for _, f := range files {
		f.Close()
	}
}

// relay is one TLS connection and its plaintext's end.
type relay struct {
	client net.Conn // the TCP (or Unix) connection, first byte given back
	plain  net.Conn
	once   sync.Once
}

func newRelay(client, plain *os.File, first byte) (*relay, error) {
	c, err := net.FileConn(client)
	if err != nil {
		return nil, err
	}
	p, err := net.FileConn(plain)
	if err != nil {
		c.Close()
		return nil, err
	}
	return &relay{client: &firstConn{Conn: c, first: first, pending: true}, plain: p}, nil
}

func (r *relay) close() {
	r.once.Do(func() {
		r.client.Close()
		r.plain.Close()
	})
}

// run does the handshake and relays until either side ends: the
// client's end of its stream is passed on as the end of pmproxy's input
// (which then answers what it has and closes), pmproxy's close ends the
// connection (close_notify sent).
func (r *relay) run(cfg *tls.Config, handshake time.Duration) {
	defer r.close()
	tc := tls.Server(r.client, cfg)
	_ = tc.SetDeadline(time.Now().Add(handshake))
	if err := tc.Handshake(); err != nil {
		return
	}
	_ = tc.SetDeadline(time.Time{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = io.Copy(r.plain, tc)
		if cw, ok := r.plain.(interface{ CloseWrite() error }); ok {
			_ = cw.CloseWrite()
		}
	}()
	_, _ = io.Copy(tc, r.plain)
	_ = tc.Close()
	r.close()
	<-done
}

// firstConn gives back, at its first Read, the byte pmproxy read to
// tell the protocol.
type firstConn struct {
	net.Conn
	first   byte
	pending bool
}

func (b *firstConn) Read(p []byte) (int, error) {
	if b.pending && len(p) > 0 {
		p[0], b.pending = b.first, false
		return 1, nil
	}
	return b.Conn.Read(p)
}
