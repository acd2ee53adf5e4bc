package web

import (
	"embed"
	"net/http"
	"path"
	"strings"
)

// static holds the page; requests name its files without the directory.
//
//go:embed static
var static embed.FS

// Handler serves the web view's files: index.html at "/", its scripts
// and style sheet beside it, 404 for anything else. The files are the
// binary's own, so they are served with a policy that lets the page load
// scripts and styles from this origin only.
func Handler() http.Handler {
	files := http.FileServerFS(static)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'self'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Cache-Control", "no-cache")
		if t, ok := contentType(r.URL.Path); ok {
			h.Set("Content-Type", t)
		}
		r2 := new(http.Request)
		*r2 = *r
		u := *r.URL
		u.Path = "/static" + r.URL.Path
		u.RawPath = ""
		r2.URL = &u
		files.ServeHTTP(w, r2)
	})
}

// contentTypes are the types of the page's own files, as the mime
// package names them. The file server asks the mime package only when no
// type is set, and its first question loads the system's whole table
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
