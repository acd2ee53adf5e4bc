package pmproxy

import (
	"context"
	"errors"
	"io"
	"log"
	"net"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gopcp/gopcp/httpd"
	"github.com/gopcp/gopcp/internal/lograte"
	"github.com/gopcp/gopcp/pcpproxy"
)

// Config are the server's bounds and handlers; zero values take the
// defaults below.
type Config struct {
	// HTTP serves the HTTP requests (NewMux's mux, with whatever else is
	// mounted on it). Nil turns HTTP off (cmd/pmproxy never does).
	HTTP httpd.Handler
	// Others, when set, are the paths HTTP serves besides those of PCP's
	// servlets (/pmapi/, /metrics, /series/, /search/): the web view's.
	// Other paths get PCP's pmproxy's answer to a URL no servlet takes
	// (400 and its page; OPTIONS * and TRACE their heads). Nil gives HTTP
	// every path.
	Others func(path string) bool
	// PCP turns the PCP protocol proxy on (cmd/pmproxy always does).
	PCP   bool
	Proxy pcpproxy.Options
	// MaxConns bounds the connections served at once (default 256);
	// more wait in the kernel's listen queue. An idle HTTP connection
	// costs a few hundred bytes, one relayed by the PCP proxy two
	// goroutines and their buffers.
	MaxConns int
	// FirstByteTimeout bounds the wait for a connection's first byte
	// (default 10s).
	FirstByteTimeout time.Duration
	// HeaderTimeout bounds reading a request's headers (default 10s),
	// ReadTimeout the whole request with its body (default 30s),
	// WriteTimeout an answer (default 120s, a scrape of a large
	// namespace), IdleTimeout a kept-alive connection between requests
	// (default 30s, so that idle keep-alive connections give their slots
	// back).
	HeaderTimeout, ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	// MaxHeaderBytes bounds a request's headers with its URL (default
	// 64 KiB); MaxBodyBytes a request body (default 1 MiB).
	MaxHeaderBytes int
	MaxBodyBytes   int64
	// ChunkSize frames answers to HTTP/1.1 requests as PCP's pmproxy
	// does ([pmproxy] chunksize, httpd.Options.ChunkSize): one that
	// reaches it goes out in chunks of that size, a shorter one with its
	// length; an HTTP/1.0 one that reaches it is refused with PCP's 413
	// page. Zero leaves it to httpd.
	ChunkSize int
	// TLS, when set, takes the connections that start with a TLS
	// record (StartTLSRelay); without it they are closed.
	TLS *TLSRelay
	// Log receives the server's own errors; nil discards them.
	Log *log.Logger
}

func (c *Config) setDefaults() {
	if c.MaxConns <= 0 {
		c.MaxConns = 256
	}
	dur := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	dur(&c.FirstByteTimeout, 10*time.Second)
	dur(&c.HeaderTimeout, 10*time.Second)
	dur(&c.ReadTimeout, 30*time.Second)
	dur(&c.WriteTimeout, 120*time.Second)
	dur(&c.IdleTimeout, 30*time.Second)
	if c.MaxHeaderBytes <= 0 {
		c.MaxHeaderBytes = 64 << 10
	}
	if c.MaxBodyBytes <= 0 {
		c.MaxBodyBytes = 1 << 20
	}
}

// Serve accepts connections on the listeners until ctx ends, then closes
// them and waits for the connections it started to end. HTTP goes to an
// httpd server, whose event loop holds a connection between requests
// without a goroutine; the PCP proxy's connections each have their own.
func Serve(ctx context.Context, cfg Config, lns ...net.Listener) error {
	cfg.setDefaults()
	// Clients of the PCP proxy can fail as often as they connect: their
	// log lines are bounded as pmcd's are.
	var proxyLog lograte.Limiter
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var srv *httpd.Server
	srv, err := httpd.New(httpd.Options{
		Handler:          front{next: cfg.HTTP, others: cfg.Others},
		Other:            func(c net.Conn) { other(ctx, c, &cfg, &proxyLog, srv) },
		IsHTTP:           func(b byte) bool { return cfg.HTTP != nil && httpd.MethodInitial(b) },
		FirstByteTimeout: cfg.FirstByteTimeout,
		HeaderTimeout:    cfg.HeaderTimeout,
		ReadTimeout:      cfg.ReadTimeout,
		WriteTimeout:     cfg.WriteTimeout,
		IdleTimeout:      cfg.IdleTimeout,
		MaxHeaderBytes:   cfg.MaxHeaderBytes,
		MaxBodyBytes:     cfg.MaxBodyBytes,
		ChunkSize:        cfg.ChunkSize,
		ChunkRefusal:     chunkRefusal,
		Head:             pcpHead,
		Log:              cfg.Log,
	})
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	slots := make(chan struct{}, cfg.MaxConns)
	errc := make(chan error, len(lns))
	for _, ln := range lns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errc <- acceptLoop(ctx, ln, srv, slots)
		}()
	}
	select {
	case <-ctx.Done():
	case err = <-errc:
		cancel()
	}
	for _, ln := range lns {
		ln.Close()
	}
	wg.Wait()
	srv.Close()
	return err
}

func acceptLoop(ctx context.Context, ln net.Listener, srv *httpd.Server, slots chan struct{}) error {
	for {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			return nil
		}
		c, err := ln.Accept()
		if err != nil {
			<-slots
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return nil
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				time.Sleep(10 * time.Millisecond)
				continue
			}
			return err
		}
		_ = srv.Add(&slotConn{Conn: c, release: func() { <-slots }})
	}
}

// other serves a connection that does not speak HTTP: the PCP proxy's,
// whose greeting starts with 'p', when it is on; TLS's, through the TLS
// companion (handTLS); anything else is closed without a word, as
// pmproxy closes it.
func other(ctx context.Context, c net.Conn, cfg *Config, logs *lograte.Limiter, srv *httpd.Server) {
	_ = c.SetReadDeadline(time.Now().Add(cfg.FirstByteTimeout))
	var first [1]byte
	_, err := io.ReadFull(c, first[:])
	if err == nil && isTLSRecord(first[0]) {
		handTLS(c, first[0], cfg.TLS, srv)
		return
	}
	if err != nil || first[0] != 'p' || !cfg.PCP {
		c.Close()
		return
	}
	_ = c.SetReadDeadline(time.Time{})
	err = pcpproxy.Handle(ctx, &firstConn{Conn: c, first: first[0], pending: true}, nil, cfg.Proxy)
	if err == nil || cfg.Log == nil {
		return
	}
	ok, held := logs.Allow()
	if !ok {
		return
	}
	if held > 0 {
		cfg.Log.Printf("pcp proxy client %s: %v (%d more such failures not logged)", c.RemoteAddr(), err, held)
	} else {
		cfg.Log.Printf("pcp proxy client %s: %v", c.RemoteAddr(), err)
	}
}

// slotConn is an accepted connection holding one of MaxConns' slots,
// given back once when it is closed. Its file descriptor is the
// connection's, for httpd's event loop. A TLS connection's plaintext
// (secure) has its client's address as its own.
type slotConn struct {
	net.Conn
	once    sync.Once
	release func()
	remote  net.Addr
	secure  bool
}

func (s *slotConn) RemoteAddr() net.Addr {
	if s.remote != nil {
		return s.remote
	}
	return s.Conn.RemoteAddr()
}

// handOver takes the slot from s, for a connection that serves on in
// its place: s's Close no longer gives it back.
func (s *slotConn) handOver() func() {
	release := func() {}
	s.once.Do(func() { release = s.release })
	return release
}

func (s *slotConn) Close() error {
	err := s.Conn.Close()
	s.once.Do(s.release)
	return err
}

func (s *slotConn) SyscallConn() (syscall.RawConn, error) {
	sc, ok := s.Conn.(syscall.Conn)
	if !ok {
		return nil, errors.New("pmproxy: connection has no file descriptor")
	}
	return sc.SyscallConn()
}

// firstConn is a connection whose first byte was read to tell its
// protocol: its first Read gives that byte back. Reads come from one
// goroutine at a time, as a net.Conn's do.
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

// chunkRefusal is PCP's pmproxy's answer to an HTTP/1.0 request whose
// answer passed its chunk size: its 413 page, naming the servlet the
// path belongs to.
func chunkRefusal(r *httpd.Request, h httpd.Header) []byte {
	servlet := "webapi"
	switch p := r.URL.Path; {
	case strings.HasPrefix(p, "/series/"):
		servlet = "series"
	case strings.HasPrefix(p, "/search/"):
		servlet = "search"
	}
	h.Set("Content-Type", "text/html")
	return errorPage(httpd.StatusRequestEntityTooLarge, servlet, "HTTP 1.0 request result exceeds server limits")
}
