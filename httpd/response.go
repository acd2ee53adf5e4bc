package httpd

import (
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// bufSize is the size of the pooled buffers: a request's bytes as they
// are read, and an answer's body until it is sent (a larger answer goes
// out in pieces of this size, chunked unless its length was given).
const bufSize = 4096

// MaxChunkSize bounds Options.ChunkSize.
const MaxChunkSize = 1 << 20

// response is the ResponseWriter of one request. It is used by the
// handler's goroutine only.
type response struct {
	c       *conn
	req     *Request
	header  Header
	status  int
	isHEAD  bool
	minor   int  // the request's HTTP/1.minor
	keep    bool // the connection may serve another request
	started bool // WriteHeader was called (or Write)
	sent    bool // the head is on its way
	chunked bool // the body goes out in chunks
	chunk   int  // Options.ChunkSize for this answer (HTTP/1.1), else 0
	// Options.ChunkSize for an HTTP/1.0 answer refused past it, else 0;
	// refused once it was
	refuseAt int
	refused  bool
	failed   error
	noBody   bool   // Options.Head asked for the head alone
	answer   Answer // Options.Head's

	declared int64 // the handler's Content-Length, -1 none
	written  int64 // body bytes the handler wrote
	body     *[]byte
	wire     *[]byte // head and framing as they go out
}

func (w *response) Header() Header { return w.header }

// WriteHeader records the status; 1xx answers (but 101) are sent at
// once, as net/http sends them.
func (w *response) WriteHeader(code int) {
	if w.started {
		return
	}
	if code < 100 || code > 999 {
		panic("httpd: invalid WriteHeader code " + strconv.Itoa(code))
	}
	if code >= 100 && code < 200 && code != StatusSwitchingProtocols {
		b := appendStatus((*w.wire)[:0], code)
		b = appendHeader(b, w.header)
		b = append(b, "\r\n"...)
		*w.wire = b
		if err := w.c.write(b); err != nil {
			w.failed = err
		}
		return
	}
	w.started = true
	w.status = code
	if cl := w.header.Get("Content-Length"); cl != "" {
		if n, ok := parseLength(cl); ok {
			w.declared = n
		} else {
			w.header.Del("Content-Length")
		}
	}
}

// bodyAllowed is net/http's rule: no body for 1xx, 204 and 304.
func bodyAllowed(status int) bool {
	return !(status >= 100 && status <= 199 || status == 204 || status == 304)
}

func (w *response) Write(p []byte) (int, error) {
	if !w.started {
		w.WriteHeader(StatusOK)
	}
	if w.failed != nil {
		return 0, w.failed
	}
	if !bodyAllowed(w.status) {
		return 0, ErrBodyNotAllowed
	}
	if w.refused || w.noBody {
		return len(p), nil
	}
	if w.refuseAt > 0 && !w.sent && w.written+int64(len(p)) >= int64(w.refuseAt) {
		w.refuse()
		return len(p), nil
	}
	if w.declared >= 0 && w.written+int64(len(p)) > w.declared {
		return 0, ErrContentLength
	}
	w.written += int64(len(p))
	if w.isHEAD {
		// kept only to sniff a Content-Type from, as net/http does
		b := *w.body
		*w.body = append(b, p[:min(len(p), cap(b)-len(b))]...)
		return len(p), nil
	}
	n := len(p)
	for len(p) > 0 {
		// flushed only when more is to come than fits: an answer
		// of exactly the buffer's size still gets its length
		if b := *w.body; len(b) == w.room() {
			if err := w.flush(false); err != nil {
				// the answer is cut short: the connection ends with it
				w.failed = err
				return n - len(p), err
			}
		}
		b := *w.body
		k := min(len(p), w.room()-len(b))
		*w.body = append(b, p[:k]...)
		p = p[k:]
	}
	return n, nil
}

// refuse replaces the answer, not yet sent, by Options.ChunkRefusal's.
func (w *response) refuse() {
	w.refused = true
	for k := range w.header {
		delete(w.header, k)
	}
	page := w.c.s.opts.ChunkRefusal(w.req, w.header)
	w.status, w.declared, w.written = StatusRequestEntityTooLarge, -1, int64(len(page))
	*w.body = append((*w.body)[:0], page...)
}

// room is what the body buffer holds before it is sent: a chunk's size
// when answers are chunked by size, else the buffer's. A chunk larger
// than the buffer is grown by append as the answer comes (and is then not
// pooled again), so that a short answer costs no chunk's worth.
func (w *response) room() int {
	if n := max(w.chunk, w.refuseAt); n > 0 {
		return n
	}
	return cap(*w.body)
}

// WriteString saves io.WriteString a conversion.
func (w *response) WriteString(s string) (int, error) {
	return w.Write([]byte(s))
}

// Flush sends what is buffered (Flusher).
func (w *response) Flush() {
	if !w.started {
		w.WriteHeader(StatusOK)
	}
	if w.failed == nil {
		w.failed = w.flush(false)
	}
}

// SetWriteDeadline moves the deadline of the answer's writes (the
// package's SetWriteDeadline finds it).
func (w *response) SetWriteDeadline(t time.Time) error { return w.c.nc.SetWriteDeadline(t) }

// flush sends the head if it has not gone and the buffered body: at the
// end (last) with a Content-Length when none was set, before it in
// chunks (HTTP/1.1) or up to the connection's close (HTTP/1.0).
func (w *response) flush(last bool) error {
	wire := (*w.wire)[:0]
	body := *w.body
	if !w.sent {
		wire = w.appendHead(wire, last)
		w.sent = true
	}
	switch {
	case w.isHEAD || w.noBody || !bodyAllowed(w.status):
	case w.chunked:
		if len(body) > 0 {
			// upper-case digits, as PCP's pmproxy writes them
			wire = appendHexUpper(wire, uint64(len(body)))
			wire = append(wire, "\r\n"...)
			wire = append(wire, body...)
			wire = append(wire, "\r\n"...)
		}
		if last {
			wire = append(wire, "0\r\n\r\n"...)
		}
	default:
		wire = append(wire, body...)
	}
	*w.wire = wire[:0]
	*w.body = body[:0]
	if last {
		return w.c.writeLast(wire)
	}
	return w.c.write(wire)
}

// appendHead writes the status line and headers, settling the framing.
func (w *response) appendHead(b []byte, last bool) []byte {
	h := w.header
	hasBody := bodyAllowed(w.status)
	switch {
	case !hasBody:
		h.Del("Content-Length")
		h.Del("Transfer-Encoding")
	case w.chunk > 0 && !last && !w.isHEAD:
		// a chunk's worth and more to come: chunked, as PCP's
		w.chunked = true
		h.Del("Content-Length")
		h.Del("Transfer-Encoding")
	case w.declared >= 0:
	case last && (!w.isHEAD || w.written > 0):
		h.Set("Content-Length", strconv.Itoa(len(*w.body)))
		if w.isHEAD {
			h.Set("Content-Length", strconv.FormatInt(w.written, 10))
		}
	case last:
		// a HEAD answer whose handler wrote nothing says no length
	case w.minor >= 1:
		w.chunked = true
		h.Del("Transfer-Encoding")
	default:
		w.keep = false
	}
	if hasBody {
		if _, typed := h["Content-Type"]; !typed && h.Get("Content-Encoding") == "" && len(*w.body) > 0 {
			h.Set("Content-Type", DetectContentType(*w.body))
		}
	}
	if hasToken(h["Connection"], "close") {
		w.keep = false
	}
	if head := w.c.s.opts.Head; head != nil {
		return w.customHead(b, head)
	}
	b = appendStatus(b, w.status)
	b = appendHeader(b, h)
	if _, ok := h["Date"]; !ok {
		b = append(b, "Date: "...)
		b = append(b, httpDate()...)
		b = append(b, "\r\n"...)
	}
	if w.chunked {
		b = append(b, "Transfer-Encoding: chunked\r\n"...)
	}
	if _, ok := h["Connection"]; !ok {
		switch {
		case !w.keep:
			b = append(b, "Connection: close\r\n"...)
		case w.minor == 0:
			b = append(b, "Connection: keep-alive\r\n"...)
		}
	}
	return append(b, "\r\n"...)
}

// customHead writes the head by Options.Head.
func (w *response) customHead(b []byte, head func([]byte, *Answer) []byte) []byte {
	a := &w.answer
	*a = Answer{Request: w.req, Status: w.status, Header: w.header, Length: -1, Chunked: w.chunked, Close: !w.keep}
	switch v := w.header["Content-Length"]; {
	case w.chunked:
	case len(v) > 0:
		a.Length, _ = parseLength(v[0])
	case w.minor >= 1 || w.keep:
		a.Length = int64(len(*w.body))
	}
	b = head(b, a)
	w.keep = !a.Close
	if a.NoBody {
		w.noBody = true
		*w.body = (*w.body)[:0]
	}
	return b
}

// appendHexUpper writes n in hexadecimal with upper-case digits.
func appendHexUpper(b []byte, n uint64) []byte {
	const digits = "0123456789ABCDEF"
	var tmp [16]byte
	i := len(tmp)
	for {
		i--
		tmp[i] = digits[n&15]
		if n >>= 4; n == 0 {
			break
		}
	}
	return append(b, tmp[i:]...)
}

func appendStatus(b []byte, code int) []byte {
	b = append(b, "HTTP/1.1 "...)
	b = strconv.AppendInt(b, int64(code), 10)
	b = append(b, ' ')
	if t := StatusText(code); t != "" {
		return append(append(b, t...), "\r\n"...)
	}
	b = append(b, "status code "...)
	b = strconv.AppendInt(b, int64(code), 10)
	return append(b, "\r\n"...)
}

// appendHeader writes the handler's headers in key order, as net/http
// does, with CR and LF in values turned to spaces.
func appendHeader(b []byte, h Header) []byte { return AppendHeader(b, h, nil) }

// AppendHeader writes h's headers as lines of a head ("Key: value\r\n"),
// in key order as net/http does, with CR and LF in values turned to
// spaces and keys that are not tokens left out; keep, when not nil,
// says which keys are written. It allocates nothing for an answer's few
// headers (Options.Head's use).
func AppendHeader(b []byte, h Header, keep func(key string) bool) []byte {
	// on the stack for the few headers an answer has
	var few [16]string
	keys := few[:0]
	for k := range h {
		if keep == nil || keep(k) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !isToken(k) {
			continue
		}
		for _, v := range h[k] {
			b = append(b, k...)
			b = append(b, ": "...)
			if strings.ContainsAny(v, "\r\n") {
				v = strings.NewReplacer("\r", " ", "\n", " ").Replace(v)
			}
			b = append(b, strings.TrimSpace(v)...)
			b = append(b, "\r\n"...)
		}
	}
	return b
}

// hasToken reports whether a comma-separated header lists tok.
func hasToken(vals []string, tok string) bool {
	for _, v := range vals {
		for _, t := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(t), tok) {
				return true
			}
		}
	}
	return false
}

// dateCache keeps the Date header's text for the current second.
type dateText struct {
	sec  int64
	text string
}

var dateCache atomic.Pointer[dateText]

func httpDate() string {
	now := time.Now()
	if d := dateCache.Load(); d != nil && d.sec == now.Unix() {
		return d.text
	}
	d := &dateText{now.Unix(), now.UTC().Format(TimeFormat)}
	dateCache.Store(d)
	return d.text
}

// refusalBytes is the answer to a request refused before any handler:
// net/http's plain text, then the connection is closed.
func refusalBytes(r *refusal) []byte {
	msg := strconv.Itoa(r.status) + " " + StatusText(r.status)
	if r.reason != "" && r.status == StatusBadRequest {
		msg += ": " + r.reason
	}
	b := appendStatus(nil, r.status)
	b = append(b, "Content-Type: text/plain; charset=utf-8\r\nConnection: close\r\nContent-Length: "...)
	b = strconv.AppendInt(b, int64(len(msg)), 10)
	b = append(b, "\r\n\r\n"...)
	return append(b, msg...)
}
