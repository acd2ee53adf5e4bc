package httpd

import (
	"context"
	"errors"
	"io"
	"net/url"
	"time"
)

// Handler answers one request. It is net/http's Handler over this
// package's types, so that a program serving through httpd links none
// of net/http (its client, TLS and HTTP/2 come with it).
//
// Unlike net/http, the server reuses what it hands ServeHTTP once it
// returns: the *Request, its Header and the ResponseWriter come
// from a pool and serve later requests, of this client or another. A
// handler that keeps anything past its return (a goroutine, a channel,
// a cache) copies the values it needs first: a kept *Request reads
// zeroed fields or another request's, and a late Write or Header may
// reach another connection's answer. Nor does the Request's context end
// when ServeHTTP returns (see Request.Context): a handler cancels what
// it derives from it, with defer, before it returns.
type Handler interface {
	ServeHTTP(ResponseWriter, *Request)
}

// HandlerFunc is a function used as a Handler.
type HandlerFunc func(ResponseWriter, *Request)

// ServeHTTP calls f(w, r).
func (f HandlerFunc) ServeHTTP(w ResponseWriter, r *Request) { f(w, r) }

// ResponseWriter is what a handler writes its answer through: headers,
// then the status (WriteHeader, 200 by the first Write when not called),
// then the body. Neither it nor its Header may be used once ServeHTTP
// has returned: both are reused for a later request, perhaps on another
// connection (see Handler).
type ResponseWriter interface {
	Header() Header
	Write([]byte) (int, error)
	WriteHeader(statusCode int)
}

// Request is a request as the server read it, whole: its body is in
// memory before the handler runs. The server reuses the Request and its
// Header once the handler has returned (see Handler): a handler copies
// what it keeps of them, never the pointer or the map.
// Its context is not ended when the handler returns (see Context).
type Request struct {
	Method string
	// URL is the request target parsed; RequestURI the target as sent.
	URL        *url.URL
	RequestURI string
	// Proto is "HTTP/1.1" or "HTTP/1.0", with its numbers.
	Proto      string
	ProtoMajor int
	ProtoMinor int
	// Header holds the request's headers but Host, which is in Host.
	Header Header
	Host   string
	// ContentLength is the body's length, -1 for a chunked body;
	// TransferEncoding then says "chunked".
	ContentLength    int64
	TransferEncoding []string
	// Close says the connection ends after this answer.
	Close bool
	// Body is the request's body; NoBody when it has none.
	Body io.ReadCloser
	// RemoteAddr is the client's address, "host:port".
	RemoteAddr string

	ctx context.Context
}

// Context is the request's context, ended when the server closes (or,
// for a request made otherwise, context.Background()). It is the
// server's own, not one made for the request: a context for each request
// and the table of children a handler's derived context adds to it were
// a sixth of what a pmproxy fetch allocated. It is not ended when the
// handler returns, so a handler ends what it derives from it.
func (r *Request) Context() context.Context {
	if r.ctx != nil {
		return r.ctx
	}
	return context.Background()
}

// WithContext is a shallow copy of r with its context changed to ctx.
func (r *Request) WithContext(ctx context.Context) *Request {
	if ctx == nil {
		panic("httpd: nil context")
	}
	r2 := new(Request)
	*r2 = *r
	r2.ctx = ctx
	return r2
}

// ProtoAtLeast reports whether the request's protocol is at least
// HTTP/major.minor.
func (r *Request) ProtoAtLeast(major, minor int) bool {
	return r.ProtoMajor > major || r.ProtoMajor == major && r.ProtoMinor >= minor
}

// NoBody is the Body of a request without one.
var NoBody = noBody{}

type noBody struct{}

func (noBody) Read([]byte) (int, error) { return 0, io.EOF }
func (noBody) Close() error             { return nil }

// Errors a ResponseWriter's Write returns, and the panic value that
// ends a handler quietly (the connection is closed, nothing logged), as
// net/http has them.
var (
	ErrBodyNotAllowed = errors.New("http: request method or response status code does not allow body")
	ErrContentLength  = errors.New("http: wrote more than the declared Content-Length")
	ErrAbortHandler   = errors.New("net/http: abort Handler")
)

// SetWriteDeadline moves the deadline of the answer's writes, when w
// can (the server's own writer can; others may), for an answer that
// takes longer than the server's write bound. It reports
// ErrNotSupported otherwise.
func SetWriteDeadline(w ResponseWriter, t time.Time) error {
	if d, ok := w.(interface{ SetWriteDeadline(time.Time) error }); ok {
		return d.SetWriteDeadline(t)
	}
	return ErrNotSupported
}

// ErrNotSupported is SetWriteDeadline's error for a writer that cannot.
var ErrNotSupported = errors.New("httpd: feature not supported")

// Flusher is a ResponseWriter that can send what it has buffered.
type Flusher interface {
	Flush()
}
