// Package httpstd serves an httpd.Handler through net/http: tests of
// handlers written for httpd keep using httptest's servers and
// net/http's client. Programs that serve through httpd to stay clear of
// net/http must not import it (cmd/pmproxy's tests check that its
// dependencies hold no net/http).
package httpstd

import (
	"net/http"
	"time"

	"github.com/gopcp/gopcp/httpd"
)

// Handler is h as a net/http handler.
func Handler(h httpd.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(&writer{w}, Request(r))
	})
}

// Request is r as httpd's handlers see a request: the same URL, header
// map and body, and r's context.
func Request(r *http.Request) *httpd.Request {
	body := r.Body
	if body == nil || body == http.NoBody {
		body = httpd.NoBody
	}
	hr := &httpd.Request{Method: r.Method, URL: r.URL, RequestURI: r.RequestURI, Proto: r.Proto,
		ProtoMajor: r.ProtoMajor, ProtoMinor: r.ProtoMinor, Header: httpd.Header(r.Header), Host: r.Host,
		ContentLength: r.ContentLength, TransferEncoding: r.TransferEncoding, Close: r.Close,
		Body: body, RemoteAddr: r.RemoteAddr}
	return hr.WithContext(r.Context())
}

// writer is net/http's ResponseWriter as httpd's; the header map is
// the same map.
type writer struct{ w http.ResponseWriter }

func (w *writer) Header() httpd.Header        { return httpd.Header(w.w.Header()) }
func (w *writer) Write(p []byte) (int, error) { return w.w.Write(p) }
func (w *writer) WriteHeader(code int)        { w.w.WriteHeader(code) }

// Flush sends what net/http's writer holds (httpd.Flusher).
func (w *writer) Flush() { _ = http.NewResponseController(w.w).Flush() }

// SetWriteDeadline moves net/http's write deadline, for
// httpd.SetWriteDeadline.
func (w *writer) SetWriteDeadline(t time.Time) error {
	return http.NewResponseController(w.w).SetWriteDeadline(t)
}
