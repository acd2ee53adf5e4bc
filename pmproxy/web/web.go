package web

import (
	"embed"
	"errors"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/gopcp/gopcp/httpd"
)

// static holds the page; requests name its files without the directory.
//
//go:embed static
var static embed.FS

// Handler serves the web view's files: index.html at "/", its scripts
// and style sheet beside it, 404 for anything else. The files are the
// binary's own, so they are served with a policy that lets the page load
// scripts and styles from this origin only.
func Handler() httpd.Handler {
	return httpd.HandlerFunc(func(w httpd.ResponseWriter, r *httpd.Request) {
		if r.Method != httpd.MethodGet && r.Method != httpd.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			httpd.Error(w, "method not allowed", httpd.StatusMethodNotAllowed)
			return
		}
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'self'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Cache-Control", "no-cache")
		if t, ok := contentType(r.URL.Path); ok {
			h.Set("Content-Type", t)
		}
		serveFile(w, r)
	})
}

// serveFile answers with the embedded file a path names as net/http's
// file server would (the handler used it until pmproxy stopped linking
// net/http): ".../index.html" and a directory named without its slash
// redirected (301, relative), a directory's index.html served for it, a
// file named with a slash redirected to its name, whatever is missing
// 404 with Cache-Control dropped, a file with its Content-Type and
// Content-Length (no body for HEAD). The files carry no modification
// time, so there is no Last-Modified and no conditional request to
// answer; Range is not supported (a client asking gets the whole file,
// as RFC 9110 allows, and no Accept-Ranges invites it).
func serveFile(w httpd.ResponseWriter, r *httpd.Request) {
	// the files are under static/, and the path is looked at as the file
	// server saw it, with that directory before it
	p := "/static" + r.URL.Path
	if strings.HasSuffix(p, "/index.html") {
		localRedirect(w, r, "./")
		return
	}
	name := path.Clean(p)[1:]
	st, err := fs.Stat(static, name)
	if err != nil {
		notFound(w, err)
		return
	}
	switch {
	case st.IsDir() && !strings.HasSuffix(p, "/"):
		localRedirect(w, r, path.Base(p)+"/")
		return
	case !st.IsDir() && strings.HasSuffix(p, "/"):
		localRedirect(w, r, "../"+path.Base(p))
		return
	case st.IsDir():
		name = path.Join(name, "index.html")
	}
	b, err := static.ReadFile(name)
	if err != nil {
		// a directory without an index: nothing of the page's
		notFound(w, err)
		return
	}
	h := w.Header()
	if _, typed := h["Content-Type"]; !typed {
		h.Set("Content-Type", httpd.DetectContentType(b))
	}
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(httpd.StatusOK)
	if r.Method != httpd.MethodHead {
		_, _ = w.Write(b)
	}
}

// localRedirect is the file server's 301 to a path relative to the
// request's, its query kept.
func localRedirect(w httpd.ResponseWriter, r *httpd.Request, to string) {
	if q := r.URL.RawQuery; q != "" {
		to += "?" + q
	}
	w.Header().Set("Location", to)
	w.WriteHeader(httpd.StatusMovedPermanently)
}

// notFound is the file server's refusal of a name it cannot open.
func notFound(w httpd.ResponseWriter, err error) {
	w.Header().Del("Cache-Control")
	if errors.Is(err, fs.ErrPermission) {
		httpd.Error(w, "403 Forbidden", httpd.StatusForbidden)
		return
	}
	httpd.Error(w, "404 page not found", httpd.StatusNotFound)
}

// contentTypes are the types of the page's own files, as the mime
// package names them (a name not here has its type sniffed). The mime
// package is not asked: its first question loads the system's whole table
// (/etc/mime.types: 437 KB of heap kept for the program's life, 30% of
// pmproxy's live heap in a profile taken under context churn) to name
// three types.
var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
}

// contentType is the type of the file a request's path names ("/" and
// other directories serve index.html).
func contentType(p string) (string, bool) {
	if strings.HasSuffix(p, "/") {
		p += "index.html"
	}
	t, ok := contentTypes[path.Ext(p)]
	return t, ok
}
