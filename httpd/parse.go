package httpd

import (
	"bytes"
	"net/url"
	"strconv"
	"strings"
	"sync"
)

// refusal is a request the server answers itself, with status and a
// reason after net/http's "400 Bad Request", then closes the connection.
type refusal struct {
	status int
	reason string
}

func (r *refusal) Error() string {
	s := strconv.Itoa(r.status) + " " + StatusText(r.status)
	if r.reason != "" {
		s += ": " + r.reason
	}
	return s
}

func refuse(status int, reason string) *refusal { return &refusal{status, reason} }

// head is a request's line and headers as parsed, with what they say
// about the body and the connection.
type head struct {
	method, target, proto string
	major, minor          int
	header                Header
	host                  string
	url                   *url.URL
	contentLength         int64 // -1: none given
	chunked               bool
	keepAlive             bool // the connection may serve another request
	expectContinue        bool

	// The Request and response serve hands the handler, which are done
	// with them when it returns: kept with the head, they come from
	// headPool with it rather than being allocated for every request.
	req  Request
	resp response
}

var headPool = sync.Pool{New: func() any { return new(head) }}

// getHead is an empty head from the pool, for parse.
func getHead() *head { return headPool.Get().(*head) }

// putHead gives h back once its request is answered, letting go of what
// it points to.
func putHead(h *head) {
	*h = head{}
	headPool.Put(h)
}

// headEnd returns the length of the head at the start of b (through the
// empty line that ends it, CRLF or bare LF), or 0 while it is incomplete.
// The search starts at from, where an earlier search of a shorter b
// stopped, so a head arriving a byte at a time is scanned once.
func headEnd(b []byte, from int) int {
	from = max(from-3, 0)
	for {
		i := bytes.IndexByte(b[from:], '\n')
		if i < 0 {
			return 0
		}
		i += from
		rest := b[i+1:]
		switch {
		case len(rest) >= 1 && rest[0] == '\n':
			return i + 2
		case len(rest) >= 2 && rest[0] == '\r' && rest[1] == '\n':
			return i + 3
		case len(rest) < 2 && (len(rest) == 0 || rest[0] == '\r'):
			return 0
		}
		from = i + 1
	}
}

// skipEmptyLines is the number of empty lines (CRLF or LF) before a
// request line, which RFC 9112 lets a server ignore (a client may send
// one after a POST's body).
func skipEmptyLines(b []byte) int {
	n := 0
	for {
		switch {
		case len(b) > n && b[n] == '\n':
			n++
		case len(b) > n+1 && b[n] == '\r' && b[n+1] == '\n':
			n += 2
		default:
			return n
		}
	}
}

// parseHead parses a complete head (headEnd's length of it). Errors are
// *refusal.
func parseHead(b []byte) (*head, error) {
	h := new(head)
	if err := h.parse(b); err != nil {
		return nil, err
	}
	return h, nil
}

// parse is parseHead into h, an empty head.
func (h *head) parse(b []byte) error {
	line, rest := nextLine(b)
	method, rest1, ok1 := strings.Cut(string(line), " ")
	target, proto, ok2 := strings.Cut(rest1, " ")
	if !ok1 || !ok2 || !isToken(method) || target == "" || !validTarget(target) {
		return refuse(StatusBadRequest, "malformed request line")
	}
	major, minor, ok := parseVersion(proto)
	if !ok {
		return refuse(StatusBadRequest, "malformed HTTP version")
	}
	if major != 1 {
		return refuse(StatusHTTPVersionNotSupported, "unsupported protocol version")
	}
	h.method, h.target, h.proto, h.major, h.minor = method, target, proto, major, minor
	h.header, h.contentLength = getHeader(), -1
	for {
		line, rest = nextLine(rest)
		if len(line) == 0 {
			break
		}
		if line[0] == ' ' || line[0] == '\t' {
			return refuse(StatusBadRequest, "obsolete line folding")
		}
		k, v, ok := bytes.Cut(line, []byte(":"))
		if !ok || len(k) == 0 || !isToken(string(k)) {
			return refuse(StatusBadRequest, "malformed header line")
		}
		v = bytes.Trim(v, " \t")
		if !validValue(v) {
			return refuse(StatusBadRequest, "invalid header value")
		}
		key := CanonicalHeaderKey(string(k))
		h.header[key] = append(h.header[key], string(v))
	}
	return h.framing()
}

// nextLine returns b's first line without its CRLF (or LF) and the rest.
func nextLine(b []byte) (line, rest []byte) {
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		return b, nil
	}
	line, rest = b[:i], b[i+1:]
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line, rest
}

// framing reads from the headers what the body and the connection are:
// Content-Length or chunks (both, or lengths that differ, are request
// smuggling and refused), Connection, Expect, Host, and the URL.
func (h *head) framing() error {
	hd := h.header
	if hosts := hd["Host"]; len(hosts) > 1 {
		return refuse(StatusBadRequest, "too many Host headers")
	} else if len(hosts) == 1 {
		h.host = hosts[0]
	}
	var err error
	if h.method == MethodConnect || h.target == "*" {
		h.url = &url.URL{Path: h.target}
		if h.method == MethodConnect {
			h.url = &url.URL{Host: h.target}
		}
	} else if h.url, err = url.ParseRequestURI(h.target); err != nil {
		return refuse(StatusBadRequest, "malformed request URI")
	}
	if h.host == "" {
		h.host = h.url.Host
	}
	te, hasTE := hd["Transfer-Encoding"]
	cls, hasCL := hd["Content-Length"]
	if hasTE && hasCL {
		return refuse(StatusBadRequest, "both Transfer-Encoding and Content-Length")
	}
	if hasTE {
		if len(te) != 1 || !strings.EqualFold(strings.TrimSpace(te[0]), "chunked") {
			return refuse(StatusNotImplemented, "unsupported transfer encoding")
		}
		h.chunked = true
	}
	for _, v := range cls {
		for _, one := range strings.Split(v, ",") {
			n, ok := parseLength(strings.TrimSpace(one))
			if !ok {
				return refuse(StatusBadRequest, "bad Content-Length")
			}
			if h.contentLength >= 0 && n != h.contentLength {
				return refuse(StatusBadRequest, "differing Content-Lengths")
			}
			h.contentLength = n
		}
	}
	h.keepAlive = h.minor >= 1
	for _, v := range hd["Connection"] {
		for _, tok := range strings.Split(v, ",") {
			switch tok = strings.TrimSpace(tok); {
			case strings.EqualFold(tok, "close"):
				h.keepAlive = false
			case strings.EqualFold(tok, "keep-alive") && h.minor == 0:
				h.keepAlive = true
			}
		}
	}
	if ex, ok := hd["Expect"]; ok {
		if len(ex) != 1 || !strings.EqualFold(strings.TrimSpace(ex[0]), "100-continue") {
			return refuse(StatusExpectationFailed, "")
		}
		h.expectContinue = h.minor >= 1
	}
	return nil
}

// parseLength is a Content-Length: decimal digits only, at most 18 of
// them (no sign, no overflow).
func parseLength(s string) (int64, bool) {
	if s == "" || len(s) > 18 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int64(s[i]-'0')
	}
	return n, true
}

// isToken reports whether s is an RFC 9110 token (a method, a header
// name).
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// validTarget refuses a request target with spaces or control bytes.
func validTarget(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] == 0x7f {
			return false
		}
	}
	return true
}

// validValue refuses control bytes in a header value but tab (bytes of
// 0x80 and above, obs-text, are let through as net/http lets them).
func validValue(v []byte) bool {
	for _, c := range v {
		if (c < ' ' && c != '\t') || c == 0x7f {
			return false
		}
	}
	return true
}

// parseVersion reads "HTTP/x.y", one digit each.
func parseVersion(v string) (major, minor int, ok bool) {
	if len(v) != len("HTTP/x.y") || !strings.HasPrefix(v, "HTTP/") || v[6] != '.' {
		return 0, 0, false
	}
	d1, d2 := v[5], v[7]
	if d1 < '0' || d1 > '9' || d2 < '0' || d2 > '9' {
		return 0, 0, false
	}
	return int(d1 - '0'), int(d2 - '0'), true
}
