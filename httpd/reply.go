package httpd

import (
	"io"
	"net/url"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Error answers with code and msg as plain text, as net/http's Error
// does: any Content-Length dropped, Content-Type text/plain, no sniffing,
// msg and a newline.
func Error(w ResponseWriter, msg string, code int) {
	h := w.Header()
	h.Del("Content-Length")
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(code)
	_, _ = io.WriteString(w, msg+"\n")
}

// NotFound is the 404 of a path nobody serves.
func NotFound(w ResponseWriter, _ *Request) { Error(w, "404 page not found", StatusNotFound) }

// Redirect answers with code and a Location of to, as net/http's
// Redirect does: a path made absolute against the request's and cleaned
// (a trailing slash kept), non-ASCII bytes escaped, and for GET a short
// HTML body naming it.
func Redirect(w ResponseWriter, r *Request, to string, code int) {
	if u, err := url.Parse(to); err == nil && u.Scheme == "" && u.Host == "" {
		if to == "" || to[0] != '/' {
			old := r.URL.EscapedPath()
			if old == "" {
				old = "/"
			}
			dir, _ := path.Split(old)
			to = dir + to
		}
		query := ""
		if i := strings.IndexByte(to, '?'); i >= 0 {
			to, query = to[:i], to[i:]
		}
		trailing := strings.HasSuffix(to, "/")
		to = path.Clean(to)
		if trailing && !strings.HasSuffix(to, "/") {
			to += "/"
		}
		to += query
	}
	h := w.Header()
	_, typed := h["Content-Type"]
	h.Set("Location", escapeNonASCII(to))
	if !typed && (r.Method == MethodGet || r.Method == MethodHead) {
		h.Set("Content-Type", "text/html; charset=utf-8")
	}
	w.WriteHeader(code)
	if !typed && r.Method == MethodGet {
		_, _ = io.WriteString(w, "<a href=\""+htmlEscaper.Replace(to)+"\">"+StatusText(code)+"</a>.\n\n")
	}
}

var htmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;")

// escapeNonASCII writes each byte of 0x80 and above as %xx (lower-case
// hex, as net/http writes them).
func escapeNonASCII(s string) string {
	var b []byte
	for i := 0; i < len(s); i++ {
		if s[i] < utf8.RuneSelf {
			if b != nil {
				b = append(b, s[i])
			}
			continue
		}
		if b == nil {
			b = append(make([]byte, 0, len(s)+8), s[:i]...)
		}
		b = append(b, '%')
		b = strconv.AppendInt(b, int64(s[i]), 16)
	}
	if b == nil {
		return s
	}
	return string(b)
}

// MaxBytesError is a MaxBytesReader's error past its bound.
type MaxBytesError struct{ Limit int64 }

func (e *MaxBytesError) Error() string { return "http: request body too large" }

// MaxBytesReader reads r up to n bytes; reading more is a
// *MaxBytesError.
func MaxBytesReader(r io.ReadCloser, n int64) io.ReadCloser {
	return &maxBytesReader{r: r, left: n, limit: n}
}

type maxBytesReader struct {
	r           io.ReadCloser
	left, limit int64
	err         error
}

func (m *maxBytesReader) Read(p []byte) (int, error) {
	if m.err != nil {
		return 0, m.err
	}
	if len(p) == 0 {
		return 0, nil
	}
	// one byte more than allowed tells a body at the bound from one past it
	if int64(len(p)) > m.left+1 {
		p = p[:m.left+1]
	}
	n, err := m.r.Read(p)
	if int64(n) <= m.left {
		m.left -= int64(n)
		m.err = err
		return n, err
	}
	n = int(m.left)
	m.left = 0
	m.err = &MaxBytesError{m.limit}
	return n, m.err
}

func (m *maxBytesReader) Close() error { return m.r.Close() }
