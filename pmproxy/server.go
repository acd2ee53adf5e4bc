package pmproxy

import (
	"context"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/gopcp/gopcp/pcpproxy"
)

// Config are the server's bounds and handlers; zero values take the
// defaults below.
type Config struct {
	// HTTP serves the HTTP requests (NewMux's mux, with whatever else is
	// mounted on it). Nil turns HTTP off (pmproxy.conf http.enabled).
	HTTP http.Handler
	// PCP turns the PCP protocol proxy on (pmproxy.conf pcp.enabled).
	PCP   bool
	Proxy pcpproxy.Options
	// MaxConns bounds the connections served at once (default 256): a
	// Go connection costs a goroutine and its buffers, some 25 KiB, so
	// more wait in the kernel's listen queue instead, as they wait in
	// PCP's pmproxy's single event loop.
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
// them and waits for the connections it started to end.
func Serve(ctx context.Context, cfg Config, lns ...net.Listener) error {
	cfg.setDefaults()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	httpLn := newChanListener()
	var wg sync.WaitGroup
	var hs *http.Server
	if cfg.HTTP != nil {
		h := http.MaxBytesHandler(cfg.HTTP, cfg.MaxBodyBytes)
		hs = &http.Server{
			Handler:           h,
			ReadHeaderTimeout: cfg.HeaderTimeout,
			ReadTimeout:       cfg.ReadTimeout,
			WriteTimeout:      cfg.WriteTimeout,
			IdleTimeout:       cfg.IdleTimeout,
			MaxHeaderBytes:    cfg.MaxHeaderBytes,
			ErrorLog:          cfg.Log,
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = hs.Serve(httpLn)
		}()
	}
	slots := make(chan struct{}, cfg.MaxConns)
	errc := make(chan error, len(lns))
	for _, ln := range lns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errc <- acceptLoop(ctx, ln, &cfg, httpLn, slots, &wg)
		}()
	}
	var err error
	select {
	case <-ctx.Done():
	case err = <-errc:
		cancel()
	}
	for _, ln := range lns {
		ln.Close()
	}
	httpLn.Close()
	if hs != nil {
		sctx, scancel := context.WithTimeout(context.Background(), 5*time.Second)
		_ = hs.Shutdown(sctx)
		scancel()
	}
	wg.Wait()
	return err
}

func acceptLoop(ctx context.Context, ln net.Listener, cfg *Config, httpLn *chanListener, slots chan struct{}, wg *sync.WaitGroup) error {
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
		wg.Add(1)
		go func() {
			defer wg.Done()
			dispatch(ctx, c, cfg, httpLn, slots)
		}()
	}
}

// dispatch reads the first byte and hands the connection on: 'p' to the
// PCP proxy, an HTTP method's letter to the HTTP server; anything else is
// closed, as pmproxy closes it. The byte is read alone, not through a
// buffer: the HTTP server buffers what follows itself, and a buffer here
// would be a third 4 KiB per connection beside its reader and writer.
func dispatch(ctx context.Context, c net.Conn, cfg *Config, httpLn *chanListener, slots chan struct{}) {
	release := func() { <-slots }
	_ = c.SetReadDeadline(time.Now().Add(cfg.FirstByteTimeout))
	var first [1]byte
	if _, err := io.ReadFull(c, first[:]); err != nil {
		c.Close()
		release()
		return
	}
	_ = c.SetReadDeadline(time.Time{})
	bc := &bufConn{Conn: c, first: first[0], pending: true, release: release}
	switch {
	case first[0] == 'p' && cfg.PCP:
		err := pcpproxy.Handle(ctx, bc, nil, cfg.Proxy)
		bc.Close()
		if err != nil && cfg.Log != nil {
			cfg.Log.Printf("pcp proxy client %s: %v", c.RemoteAddr(), err)
		}
	case httpMethodLetter(first[0]) && cfg.HTTP != nil:
		if !httpLn.deliver(ctx, bc) {
			bc.Close()
		}
	default:
		bc.Close()
	}
}

func httpMethodLetter(b byte) bool {
	switch b {
	case 'G', 'H', 'P', 'D', 'T', 'O', 'C':
		return true
	}
	return false
}

// bufConn is a connection whose first byte the dispatcher has read: its
// first Read gives that byte back. Closing it gives its slot back once.
// Reads come from one goroutine at a time (the HTTP server's or the
// proxy's), as a net.Conn's do.
type bufConn struct {
	net.Conn
	first   byte
	pending bool
	once    sync.Once
	release func()
}

func (b *bufConn) Read(p []byte) (int, error) {
	if b.pending && len(p) > 0 {
		p[0], b.pending = b.first, false
		return 1, nil
	}
	return b.Conn.Read(p)
}

func (b *bufConn) Close() error {
	err := b.Conn.Close()
	b.once.Do(b.release)
	return err
}

// chanListener is the listener the HTTP server accepts from: connections
// the dispatcher found to speak HTTP.
type chanListener struct {
	ch     chan net.Conn
	done   chan struct{}
	once   sync.Once
	closed sync.Mutex
}

func newChanListener() *chanListener {
	return &chanListener{ch: make(chan net.Conn), done: make(chan struct{})}
}

func (l *chanListener) deliver(ctx context.Context, c net.Conn) bool {
	select {
	case l.ch <- c:
		return true
	case <-l.done:
		return false
	case <-ctx.Done():
		return false
	}
}

func (l *chanListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.ch:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *chanListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *chanListener) Addr() net.Addr { return &net.TCPAddr{} }
