package pmproxy

import (
	"slices"
	"strconv"
	"strings"

	"github.com/gopcp/gopcp/httpd"
)

// pcpHead writes an answer's head as PCP 6.0.3's pmproxy writes every
// head (its http.c), for httpd.Options.Head: the request's HTTP version
// in the status line with http-parser's reason phrase, then always
// "Connection: Keep-Alive" (even where the connection is then closed:
// an HTTP/1.0 request's, a "Connection: close" one's), the same three
// CORS headers, the framing, Content-Type and Date, in that order.
// OPTIONS and TRACE are answered by their own heads with no body, as
// HTTP/1.1 (PCP sets its parser's version to 1.1 to write them, so an
// HTTP/1.0 connection then stays open too).
// Headers of ours that PCP's never sends (the web view's, Retry-After)
// come after Content-Type. PCP's HTML error pages are written, but for
// its 413, while http-parser has read the URL and not yet the version:
// they say HTTP/1.1 whatever the request's, and go with their body
// whatever the method.
func pcpHead(b []byte, a *httpd.Answer) []byte {
	r := a.Request
	minor := r.ProtoMinor
	page := a.Status >= 400 && a.Status != httpd.StatusRequestEntityTooLarge && a.Header.Get("Content-Type") == "text/html"
	if page {
		minor = 1
	} else {
		switch r.Method {
		case httpd.MethodOptions:
			a.NoBody, a.Close = true, asksClose(r)
			return accessHead(b, a)
		case httpd.MethodTrace:
			a.NoBody, a.Close = true, asksClose(r)
			return traceHead(b, a)
		}
	}
	b = statusLine(b, minor, a.Status)
	b = append(b, "Connection: Keep-Alive\r\n"+
		"Access-Control-Allow-Origin: *\r\n"+
		"Access-Control-Allow-Headers: "+allowedHeaders+"\r\n"+
		"Access-Control-Max-Age: 86400\r\n"...)
	if a.Chunked || r.Method == httpd.MethodHead && !page {
		// PCP's HEAD answer says chunked and sends no chunk at all (its
		// error page's says its length, and PCP sends the page after it
		// too, which the client would read as the next answer: httpd
		// sends no body to HEAD)
		b = append(b, "Transfer-encoding: chunked\r\n"...)
	} else {
		b = append(b, "Content-Length: "...)
		b = strconv.AppendInt(b, max(a.Length, 0), 10)
		b = append(b, "\r\n"...)
	}
	b = append(b, "Content-Type: "...)
	if t := a.Header.Get("Content-Type"); t != "" {
		b = append(b, t...)
	} else {
		b = append(b, "application/octet-stream"...)
	}
	b = append(b, "\r\n"...)
	b = otherHeaders(b, a.Header)
	return dateLine(b)
}

// allowedHeaders are the request headers PCP's pmproxy lets a page send.
const allowedHeaders = "Accept, Accept-Language, Content-Language, Content-Type"

// accessHead is the answer to OPTIONS, CORS's preflight: its methods are
// those of the command the path names, and a method asked for
// (Access-Control-Request-Method, spelt exactly) that is not among them
// makes it 405 without the CORS headers. PCP answers it as HTTP/1.1
// whatever the request's version.
func accessHead(b []byte, a *httpd.Answer) []byte {
	r := a.Request
	status := a.Status
	methods := pathMethods(r)
	if m, ok := r.Header["Access-Control-Request-Method"]; ok && len(m) > 0 && !slices.Contains(methods, m[0]) {
		status = httpd.StatusMethodNotAllowed
	}
	b = statusLine(b, 1, status)
	b = append(b, "Connection: Keep-Alive\r\nContent-Length: 0\r\n"...)
	if status >= 200 && status < 400 {
		if o, ok := r.Header["Origin"]; ok && len(o) > 0 {
			b = append(b, "Access-Control-Allow-Origin: "...)
			b = append(b, o[0]...)
			b = append(b, "\r\n"...)
		}
		b = append(b, "Access-Control-Allow-Methods: "...)
		for i, m := range methods {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = append(b, m...)
		}
		b = append(b, "\r\nAccess-Control-Max-Age: 86400\r\n"...)
		if _, ok := r.Header["Access-Control-Request-Headers"]; ok {
			b = append(b, "Access-Control-Allow-Headers: "+allowedHeaders+"\r\n"...)
		}
	}
	return dateLine(b)
}

// Methods as PCP's pmproxy lists them for OPTIONS, in its order.
var (
	getMethods    = []string{"GET", "HEAD", "TRACE", "OPTIONS"}
	postMethods   = []string{"GET", "HEAD", "POST", "TRACE", "OPTIONS"}
	serverMethods = []string{"GET", "PUT", "HEAD", "POST", "TRACE", "OPTIONS"}
)

// pathMethods are the methods of the command r's path names: POST too
// for the REST API's derive and store and for the series API but its
// ping; the server's for "*".
func pathMethods(r *httpd.Request) []string {
	p := r.URL.Path
	switch {
	case r.RequestURI == "*":
		return serverMethods
	case strings.HasPrefix(p, "/series/"):
		if strings.TrimPrefix(p, "/series/") == "ping" {
			return getMethods
		}
		return postMethods
	case strings.HasPrefix(p, "/pmapi/"):
		cmd := p[strings.LastIndexByte(p, '/')+1:]
		if cmd == "derive" || cmd == "store" || cmd == "_derive" || cmd == "_store" {
			return postMethods
		}
	}
	return getMethods
}

// traceHead is the answer to TRACE: the request's headers echoed (here
// in name order with Go's spelling; PCP's in its hash table's order, as
// the client spelt them), as HTTP/1.1.
func traceHead(b []byte, a *httpd.Answer) []byte {
	r := a.Request
	b = statusLine(b, 1, a.Status)
	b = append(b, "Connection: Keep-Alive\r\nContent-Length: 0\r\n"...)
	if r.Host != "" {
		b = append(b, "Host: "...)
		b = append(b, r.Host...)
		b = append(b, "\r\n"...)
	}
	b = httpd.AppendHeader(b, r.Header, nil)
	return dateLine(b)
}

// asksClose says whether r's Connection header says close.
func asksClose(r *httpd.Request) bool {
	for _, v := range r.Header["Connection"] {
		for tok := range strings.SplitSeq(v, ",") {
			if strings.EqualFold(strings.TrimSpace(tok), "close") {
				return true
			}
		}
	}
	return false
}

func statusLine(b []byte, minor, status int) []byte {
	b = append(b, "HTTP/1."...)
	b = strconv.AppendInt(b, int64(minor), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(status), 10)
	b = append(b, ' ')
	b = append(b, statusText(status)...)
	return append(b, "\r\n"...)
}

// statusText is the reason phrase of PCP's http-parser: RFC 7231's where
// net/http keeps RFC 2616's.
func statusText(code int) string {
	switch code {
	case httpd.StatusRequestEntityTooLarge:
		return "Payload Too Large"
	case httpd.StatusRequestURITooLong:
		return "URI Too Long"
	case httpd.StatusRequestedRangeNotSatisfiable:
		return "Range Not Satisfiable"
	}
	if t := httpd.StatusText(code); t != "" {
		return t
	}
	return "status code " + strconv.Itoa(code)
}

func dateLine(b []byte) []byte {
	b = append(b, "Date: "...)
	b = append(b, httpd.Date()...)
	return append(b, "\r\n\r\n"...)
}

// otherHeaders writes the handler's headers PCP's head has no place for.
func otherHeaders(b []byte, h httpd.Header) []byte {
	return httpd.AppendHeader(b, h, func(k string) bool {
		switch k {
		case "Content-Type", "Content-Length", "Transfer-Encoding", "Connection", "Date",
			"Access-Control-Allow-Origin", "Access-Control-Allow-Headers", "Access-Control-Max-Age":
			return false
		}
		return true
	})
}
