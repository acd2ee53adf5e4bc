package restapi

import (
	"context"
	"io"
	"strings"
	"time"

	"github.com/gopcp/gopcp/httpd"
	"github.com/gopcp/gopcp/series"
)

// SearchHandler serves pmproxy's /search/* REST API (text, suggest,
// indom, info), which PCP's pmproxy answers from Redis's search module
// (RediSearch). Debian's Redis has none, and there PCP 6.0.3's pmproxy
// dies of a segmentation fault on every well-formed /search request,
// whether Redis is up or not (docs/series.md). This handler refuses
// what PCP's servlet refuses before asking Redis with PCP's page, and
// answers the rest with a JSON refusal that says why: no Redis, no
// search module, or (with one) full-text search not built here.
func SearchHandler(st *series.Store) httpd.Handler { return &searchHandler{st: st} }

type searchHandler struct{ st *series.Store }

var searchCommands = []string{"text", "suggest", "indom", "info"}

// searchPage is PCP's HTML refusal of a /search request.
func searchPage(w httpd.ResponseWriter, servlet, msg string) {
	w.Header().Set("Content-Type", "text/html")
	w.WriteHeader(httpd.StatusBadRequest)
	io.WriteString(w, "<html>\r\n<head><title>400 Bad Request</title></head>\r\n<body>\r\n"+
		"<h1>400 Bad Request</h1>\r\n<p><b>"+servlet+" servlet</b>: "+msg+"</p><hr>\r\n"+
		"<p><small><i>pmproxy/6.0.3</i></small></p>\r\n</body>\r\n</html>\r\n")
}

func (h *searchHandler) ServeHTTP(w httpd.ResponseWriter, r *httpd.Request) {
	name, _ := strings.CutPrefix(r.URL.Path, "/search/")
	cmd := ""
	for _, c := range searchCommands {
		// PCP matches the command's name as a prefix of the path's rest
		if strings.HasPrefix(name, c) {
			cmd = c
			break
		}
	}
	if cmd == "" {
		searchPage(w, "unknown", "no handler for URL")
		return
	}
	params, err := requestParams(r)
	if err != nil {
		searchPage(w, "search", "failed to process URL")
		return
	}
	if cmd != "info" && !params.Has("query") {
		searchPage(w, "search", "failed to process URL")
		return
	}
	client := ""
	if p := params["clientid"]; len(p) > 0 {
		client = `"client":` + repr(p[0]) + ","
	}
	if h.st == nil {
		fail(w, httpd.StatusServiceUnavailable, client, "no Redis servers configured for search")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 10*time.Second)
	defer cancel()
	has, err := h.st.HasSearchModule(ctx)
	switch {
	case err != nil:
		fail(w, httpd.StatusServiceUnavailable, client, err.Error())
	case !has:
		fail(w, httpd.StatusServiceUnavailable, client, "Redis has no search module (RediSearch): /search/"+cmd+" is not available")
	default:
		fail(w, httpd.StatusNotImplemented, client, "/search/"+cmd+" over RediSearch is not implemented by this pmproxy")
	}
}
