package web

import (
	"embed"
	"errors"
	"io/fs"
	"net/url"
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

// Has says whether path is one the web view serves: "/", index.html or
// a file beside it. pmproxy answers other paths as PCP's pmproxy does
// (pmproxy.Config.Others).
func Has(path string) bool {
	if path == "/" || path == "/index.html" {
		return true
	}
	name := strings.TrimPrefix(path, "/")
	if name == "" || strings.Contains(name, "/") {
		return false
	}
	f, err := fs.Stat(static, "static/"+name)
	return err == nil && !f.IsDir()
}

// serveFile answers with the embedded file a path names as net/http's
// file server would (the handler used it until pmproxy stopped linking
// net/http): ".../index.html" and a directory named without its slash
// redirected (301, relative), a directory's index.html served for it, a
// file named with a slash redirected to its name, a directory without an
// index listed, whatever is missing
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
	if name == "" {
		name = "."
	}
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
		if _, err := fs.Stat(static, path.Join(name, "index.html")); err != nil {
			dirList(w, name)
			return
		}
		name = path.Join(name, "index.html")
	}
	b, err := static.ReadFile(name)
	if err != nil {
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

// dirList answers for a directory without an index.html (only the
// embedded tree's root, named by a path that climbs out of static/,
// which pmproxy's mux redirects before it gets here) with the file
// server's listing of its entries.
func dirList(w httpd.ResponseWriter, name string) {
	entries, err := static.ReadDir(name)
	if err != nil {
		httpd.Error(w, "Error reading directory", httpd.StatusInternalServerError)
		return
	}
	var b strings.Builder
	b.WriteString("<!doctype html>\n<meta name=\"viewport\" content=\"width=device-width\">\n<pre>\n")
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() {
			n += "/"
		}
		u := url.URL{Path: n}
		b.WriteString("<a href=\"" + u.String() + "\">" + htmlEscaper.Replace(n) + "</a>\n")
	}
	b.WriteString("</pre>\n")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write([]byte(b.String()))
}

var htmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;")

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
