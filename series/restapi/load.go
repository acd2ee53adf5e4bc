package restapi

import (
	"context"
	"errors"
	"io"
	"net/url"
	"time"

	"github.com/gopcp/gopcp/httpd"
	"github.com/gopcp/gopcp/series"
)

// load is /series/load: the archive a load expression names loaded into
// Redis, answered when done, as PCP 6.0.3's pmproxy means it to be
// (series.c's pmseries_request_load): no expression in a GET is the
// servlet's 400 page, none in a POST body a JSON refusal; the
// expression's faults are pmSeriesLoad's messages. One load runs at a
// time; another asked meanwhile is refused with PCP's 409 "load
// in-progress".
func (h *handler) load(w httpd.ResponseWriter, r *httpd.Request, p url.Values, client string) {
	expr, given := p["expr"]
	if given && expr[0] == "" || !given && r.Method != httpd.MethodPost {
		badURL(w)
		return
	}
	if !given {
		fixedReply(w, httpd.StatusBadRequest, `{"success":false,"message":"no load expression"}`)
		return
	}
	if h.st == nil {
		fail(w, httpd.StatusServiceUnavailable, client, "no Redis servers configured for series")
		return
	}
	select {
	case h.loading <- struct{}{}:
		defer func() { <-h.loading }()
	default:
		fixedReply(w, httpd.StatusConflict, `{"success":false,"message":"load in-progress"}`)
		return
	}
	path, metrics, err := series.LoadSource(expr[0])
	if err != nil {
		var qe *series.QueryError
		if errors.As(err, &qe) {
			fail(w, httpd.StatusBadRequest, client, qe.Msg)
		} else {
			fail(w, httpd.StatusBadRequest, client, err.Error())
		}
		return
	}
	if msg := series.OpenFault(path); msg != "" {
		fail(w, httpd.StatusBadRequest, client, msg)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), h.opt.LoadTimeout)
	defer cancel()
	// the answer comes when the load is done: the server's write
	// deadline (made for ordinary answers) moves past the load's own
	_ = httpd.SetWriteDeadline(w, time.Now().Add(h.opt.LoadTimeout+time.Minute))
	opt := h.opt.Load
	opt.Include = metrics
	if _, err := h.st.Load(ctx, path, opt); err != nil {
		fail(w, httpd.StatusBadRequest, client, err.Error())
		return
	}
	reply(w, []byte("{"+client+`"success":true}`))
}

// fixedReply writes one of PCP's fixed load refusals.
func fixedReply(w httpd.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	io.WriteString(w, body+"\r\n")
}
