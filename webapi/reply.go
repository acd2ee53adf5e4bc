package webapi

import (
	"strconv"
	"sync"

	"github.com/gopcp/gopcp/httpd"
	"github.com/gopcp/gopcp/internal/webid"
)

// Status codes of a request's end, pmproxy's negative errno values, and
// the HTTP statuses on_pmwebapi_done gives them.
const (
	statusOK      = 0
	statusPerm    = -1   // -EPERM: 403
	statusNotConn = -107 // -ENOTCONN
	statusInval   = -22  // -EINVAL
	statusAgain   = -11  // -EAGAIN: 401
	status2Big    = -7   // -E2BIG
)

// reply is one request's answer as it is built: pmproxy's baton, with the
// state its callbacks keep between the pieces of a streamed answer.
type reply struct {
	compat   bool
	times    bool
	clientID []byte // the client parameter, JSON-encoded, or nil
	buf      []byte
	suffix   suffix
	text     bool // OpenMetrics text rather than JSON

	// Where a fetch or scrape is: the metric (PMID and name) last
	// started and the counts of value sets and instances written.
	pmid     uint32
	name     string
	numVSets int
	numInsts int
	indom    uint32
	numInDom int
}

// An answer is built whole before it is written (its length goes first),
// growing from nothing by doubling: some 4.5 KiB of garbage for a 1 KiB
// fetch answer, half of all a fetch allocated. Answers are built in
// pooled buffers instead; one that grew past maxPooledReply (a whole
// namespace) is left to the collector rather than kept.
const (
	replyBufSize   = 2 << 10
	maxPooledReply = 64 << 10
)

var replyBufs = sync.Pool{New: func() any { b := make([]byte, 0, replyBufSize); return &b }}

// getReplyBuf is an empty pooled buffer for an answer.
func getReplyBuf() []byte { return (*replyBufs.Get().(*[]byte))[:0] }

// putReplyBuf gives an answer's buffer back once it has been written.
func putReplyBuf(b []byte) {
	if cap(b) == 0 || cap(b) > maxPooledReply {
		return
	}
	b = b[:0]
	replyBufs.Put(&b)
}

// done finishes the answer as on_pmwebapi_done does and writes it.
// id is the context identifier to report ("" for none).
func (r *reply) done(w httpd.ResponseWriter, id string, status int, msg *string) {
	h := w.Header()
	code := httpd.StatusOK
	var body []byte
	if status == statusOK {
		body = r.buf
		if r.suffix != nil {
			body = append(body, r.suffix...)
		} else if !r.text {
			body = append(body, '{')
			if id != "" {
				body = append(body, `"context":`...)
				body = append(body, id...)
				body = append(body, ',')
			}
			body = append(body, "\"success\":true}\r\n"...)
		}
		if r.text {
			h.Set("Content-Type", "text/plain")
		} else {
			h.Set("Content-Type", "application/json")
		}
	} else {
		switch status {
		case statusPerm:
			code = httpd.StatusForbidden
		case statusAgain:
			code = httpd.StatusUnauthorized
		default:
			code = httpd.StatusBadRequest
		}
		body = append(body, '{')
		if id != "" {
			body = append(body, `"context":`...)
			body = append(body, id...)
			body = append(body, ',')
		}
		body = append(body, `"message":`...)
		if msg != nil {
			body = webid.AppendUnicode(body, *msg)
		} else {
			body = append(body, `"(none)"`...)
		}
		body = append(body, ",\"success\":false}\r\n"...)
		h.Set("Content-Type", "application/json")
	}
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(code)
	_, _ = w.Write(body)
	if status == statusOK {
		// what the suffix grew it to goes back to the pool
		r.buf = body
	}
}

// limit answers a request refused by a bound.
func (r *reply) limit(w httpd.ResponseWriter, e *limitError) {
	body := webid.AppendUnicode([]byte(`{"message":`), e.msg)
	body = append(body, ",\"success\":false}\r\n"...)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Retry-After", "5")
	w.WriteHeader(e.status)
	_, _ = w.Write(body)
}

// htmlError is pmproxy's HTML error page, which it sends for a URL no
// servlet takes ("unknown") or one missing a required parameter
// ("webapi").
func htmlError(w httpd.ResponseWriter, code int, servlet, what string) {
	status := strconv.Itoa(code) + " " + httpd.StatusText(code)
	body := "<html>\r\n<head><title>" + status + "</title></head>\r\n<body>\r\n<h1>" + status +
		"</h1>\r\n<p><b>" + servlet + " servlet</b>: " + what + "</p><hr>\r\n" +
		"<p><small><i>pmproxy/6.0.3</i></small></p>\r\n</body>\r\n</html>\r\n"
	w.Header().Set("Content-Type", "text/html")
	w.Header().Set("Access-Control-Allow-Origin", "*")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(code)
	_, _ = w.Write([]byte(body))
}
