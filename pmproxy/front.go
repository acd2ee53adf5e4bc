package pmproxy

import (
	"strconv"
	"strings"

	"github.com/gopcp/gopcp/httpd"
)

// maxURL is PCP's pmproxy's bound on a request's URL: one this long or
// longer is refused, 414, before any servlet sees it.
const maxURL = 8192

// front answers what PCP's pmproxy answers before its servlets: a URL
// too long, and the URLs none of them takes (its REST API's, /metrics,
// the series and search APIs'). Others lets the handler have more paths
// (the web view's); everything else goes to next.
type front struct {
	next   httpd.Handler
	others func(path string) bool
}

func (f front) ServeHTTP(w httpd.ResponseWriter, r *httpd.Request) {
	p := r.URL.Path
	switch {
	case len(r.RequestURI) >= maxURL:
		pcpError(w, httpd.StatusRequestURITooLong, "unknown", "request URL too long")
	case f.others == nil, servletPath(p), f.others(p):
		f.next.ServeHTTP(w, r)
	case r.Method == httpd.MethodOptions && r.RequestURI == "*", r.Method == httpd.MethodTrace:
		// pcpHead writes the server's preflight or the echo
		w.WriteHeader(httpd.StatusOK)
	case r.Method == httpd.MethodOptions:
		pcpError(w, httpd.StatusBadRequest, "unknown", "no handler for OPTIONS")
	default:
		pcpError(w, httpd.StatusBadRequest, "unknown", "no handler for URL")
	}
}

// servletPath says whether one of PCP's servlets takes p.
func servletPath(p string) bool {
	return strings.HasPrefix(p, "/pmapi/") || strings.HasPrefix(p, "/series/") ||
		strings.HasPrefix(p, "/search/") || p == "/metrics"
}

// pcpError answers with PCP's error page, naming the servlet.
func pcpError(w httpd.ResponseWriter, status int, servlet, msg string) {
	page := errorPage(status, servlet, msg)
	h := w.Header()
	h.Set("Content-Type", "text/html")
	h.Set("Content-Length", strconv.Itoa(len(page)))
	w.WriteHeader(status)
	_, _ = w.Write(page)
}

// errorPage is PCP's pmproxy's HTML page for a failed request.
func errorPage(status int, servlet, msg string) []byte {
	s := strconv.Itoa(status) + " " + statusText(status)
	return []byte("<html>\r\n<head><title>" + s + "</title></head>\r\n<body>\r\n<h1>" + s +
		"</h1>\r\n<p><b>" + servlet + " servlet</b>: " + msg + "</p><hr>\r\n" +
		"<p><small><i>pmproxy/6.0.3</i></small></p>\r\n</body>\r\n</html>\r\n")
}
