package web

import (
	"embed"
	"net/http"
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
		r2 := new(http.Request)
		*r2 = *r
		u := *r.URL
		u.Path = "/static" + r.URL.Path
		u.RawPath = ""
		r2.URL = &u
		files.ServeHTTP(w, r2)
	})
}
