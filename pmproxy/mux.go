package pmproxy

import (
	"net/http"

	"github.com/gopcp/gopcp/webapi"
)

// NewMux returns a mux serving the REST API at /pmapi/ and /metrics.
// Everything else is free: a caller mounts a web view at "/" or the
// series API at /series/ with Handle before serving; without a handler for
// "/" other paths get 404.
func NewMux(api *webapi.Server) *http.ServeMux {
	mux := http.NewServeMux()
	mux.Handle("/pmapi/", api)
	mux.Handle("/metrics", api)
	return mux
}
