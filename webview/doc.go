// Package webview is pmproxy's live web view: plain HTML, CSS and
// JavaScript embedded in the binary, served at "/" beside the REST API,
// and using nothing but it (/pmapi/context, metric, indom and fetch). Pick
// a host, search the namespace by prefix, and chart metrics live, several
// at once: counters as rates, each instance a line that can be switched
// off. A URL such as /?hostspec=localhost&metrics=kernel.all.load opens
// with those charts.
package webview

import (
	"embed"
	"io/fs"
	"net/http"
)

//go:embed static
var static embed.FS

// Handler serves the view's files; mount it at "/".
func Handler() http.Handler {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		// The embedded tree always has its directory; this cannot fail.
		return http.NotFoundHandler()
	}
	return http.FileServer(http.FS(sub))
}
