package pmproxy

import (
	"github.com/gopcp/gopcp/httpd"
	"github.com/gopcp/gopcp/webapi"
)

// NewMux returns a mux serving the REST API at /pmapi/ and /metrics.
// Everything else is free: a caller mounts a web view at "/" or the
// series API at /series/ with Handle before serving; without a handler for
// "/" other paths get 404. It is httpd's mux, which routes as
// net/http's does (redirects of unclean paths and of "/pmapi" included).
func NewMux(api *webapi.Server) *httpd.ServeMux {
	mux := httpd.NewServeMux()
	mux.Handle("/pmapi/", api)
	mux.Handle("/metrics", api)
	return mux
}
