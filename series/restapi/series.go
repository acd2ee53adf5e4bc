package restapi

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/url"
	"strings"
	"time"

	"github.com/gopcp/gopcp/httpd"
	"github.com/gopcp/gopcp/internal/webid"
	"github.com/gopcp/gopcp/series"
)

// Handler serves pmproxy's /series/* REST API from st, as PCP 6.0.3's
// pmproxy answers it (src/pmproxy/src/series.c): parameters from the URL's
// query or, for a POST without one, from a form-encoded body; JSON bodies
// ending "\r\n"; a failed request 400 with {"success":false}. With st nil
// (no Redis configured) ping still succeeds and every other request gets
// a 503 and a JSON message instead of PCP's hang.
func Handler(st *series.Store) httpd.Handler { return NewHandler(st, HandlerOptions{}) }

// HandlerOptions are the settings of /series/load.
type HandlerOptions struct {
	// Load holds the stream settings and exclusions of archives loaded
	// (pmproxy.conf's [pmseries] and [discover] ones).
	Load series.LoadOptions
	// LoadTimeout bounds one load (an hour when zero).
	LoadTimeout time.Duration
}

// NewHandler is Handler with /series/load's settings.
func NewHandler(st *series.Store, opt HandlerOptions) httpd.Handler {
	if opt.LoadTimeout <= 0 {
		opt.LoadTimeout = time.Hour
	}
	return &handler{st: st, opt: opt, loading: make(chan struct{}, 1)}
}

type handler struct {
	st      *series.Store
	opt     HandlerOptions
	loading chan struct{} // held by the load under way: one at a time
}

// maxBody bounds a POST body: PCP's pmproxy takes long queries there.
const maxBody = 1 << 20

// commands are PCP's, matched by prefix as pmseries_lookup_rest_command
// matches them ("/series/valuesX" is values).
var commands = []string{"query", "descs", "instances", "labels", "metrics", "sources", "values", "load", "ping"}

func (h *handler) ServeHTTP(w httpd.ResponseWriter, r *httpd.Request) {
	name, ok := strings.CutPrefix(r.URL.Path, "/series/")
	cmd := ""
	for _, c := range commands {
		if ok && strings.HasPrefix(name, c) {
			cmd = c
			break
		}
	}
	if cmd == "" {
		httpd.Error(w, "no handler for URL", httpd.StatusBadRequest)
		return
	}
	params, err := requestParams(r)
	if err != nil {
		fail(w, httpd.StatusBadRequest, "", "")
		return
	}
	// a client identifier wraps every answer, as PCP's
	// push_client_identifier does
	client := ""
	if p := params["client"]; len(p) > 0 {
		client = `"client":` + repr(p[0]) + ","
	}
	if cmd == "ping" {
		reply(w, []byte(`{`+client+`"success":true}`))
		return
	}
	if cmd == "load" {
		h.load(w, r, params, client)
		return
	}
	if h.st == nil {
		fail(w, httpd.StatusServiceUnavailable, client, "no Redis servers configured for series")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), time.Minute)
	defer cancel()
	v, status := h.answer(ctx, cmd, params)
	if status != 0 {
		badURL(w)
		return
	}
	if err, isErr := v.(error); isErr && err == errNoSeries {
		fail(w, httpd.StatusBadRequest, client, "")
		return
	} else if isErr {
		msg := err.Error()
		var qe *series.QueryError
		if errors.As(err, &qe) {
			msg = qe.Msg // the first of several, as PCP's pmproxy answers
		}
		fail(w, httpd.StatusBadRequest, client, msg)
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		fail(w, httpd.StatusInternalServerError, client, err.Error())
		return
	}
	if string(b) == "null" {
		b = []byte("[]")
	}
	if client != "" {
		b = append([]byte("{"+client+`"result":`), append(b, '}')...)
	}
	reply(w, b)
}

// badURL is PCP's page for a request its servlet refuses before asking
// Redis (an expression or series missing or empty). PCP's pmproxy then
// also sends a second, unsolicited {"success":false} response on the
// connection, a fault not copied here.
func badURL(w httpd.ResponseWriter) {
	w.Header().Set("Content-Type", "text/html")
	w.WriteHeader(httpd.StatusBadRequest)
	io.WriteString(w, "<html>\r\n<head><title>400 Bad Request</title></head>\r\n<body>\r\n"+
		"<h1>400 Bad Request</h1>\r\n<p><b>series servlet</b>: failed to process URL</p><hr>\r\n"+
		"<p><small><i>pmproxy/6.0.3</i></small></p>\r\n</body>\r\n</html>\r\n")
}

func reply(w httpd.ResponseWriter, b []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(httpd.StatusOK)
	w.Write(append(b, "\r\n"...))
}

// fail is PCP's JSON refusal; client is "" or `"client":<id>,`.
func fail(w httpd.ResponseWriter, status int, client, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	if msg == "" {
		io.WriteString(w, "{"+client+"\"success\":false}\r\n")
		return
	}
	io.WriteString(w, "{"+client+"\"message\":"+repr(msg)+",\"success\":false}\r\n")
}

// list is a comma-separated parameter; present says it was given, and an
// empty one is PCP's 400.
func list(p url.Values, keys ...string) (vals []string, present, bad bool) {
	for _, k := range keys {
		if p.Has(k) {
			v := p.Get(k)
			if v == "" {
				return nil, true, true
			}
			return strings.Split(v, ","), true, false
		}
	}
	return nil, false, false
}

// answer runs one command; a non-zero status is a request PCP refuses
// before asking Redis; an error value is Redis's or the query's.
func (h *handler) answer(ctx context.Context, cmd string, p url.Values) (any, int) {
	st := h.st
	wrap := func(v any, err error) (any, int) {
		if err != nil {
			return err, 0
		}
		return v, 0
	}
	sids, given, bad := list(p, "series")
	if bad {
		return nil, httpd.StatusBadRequest
	}
	switch cmd {
	case "query":
		expr := p.Get("expr")
		if expr == "" {
			return nil, httpd.StatusBadRequest
		}
		res, err := st.Query(ctx, expr)
		if err != nil {
			return err, 0
		}
		if res.Warning != nil {
			// PCP's pmproxy answers the first message it is given
			return res.Warning, 0
		}
		if res.Values != nil {
			return res.Values, 0
		}
		return res.Series, 0
	case "descs":
		if !given {
			return nil, httpd.StatusBadRequest
		}
		return wrap(st.Descs(ctx, sids))
	case "metrics":
		if !given {
			return wrap(namesOf(ctx, st, "metric.name", p))
		}
		return wrap(st.Metrics(ctx, sids))
	case "instances":
		if !given {
			return wrap(namesOf(ctx, st, "inst.name", p))
		}
		return wrap(st.Instances(ctx, sids))
	case "labels":
		names, named, bad := list(p, "name", "names")
		if bad {
			return nil, httpd.StatusBadRequest
		}
		if named {
			return labelValues(ctx, st, names)
		}
		if !given {
			return wrap(namesOf(ctx, st, "label.name", p))
		}
		return wrap(st.SeriesLabelsOf(ctx, sids))
	case "sources":
		srcs, given, bad := list(p, "source")
		if bad || (!given && !p.Has("match")) {
			return nil, httpd.StatusBadRequest
		}
		if !given {
			return wrap(namesOf(ctx, st, "context.name", p))
		}
		return wrap(st.SourceNames(ctx, srcs))
	case "values":
		if !given {
			return errNoSeries, 0
		}
		w, err := windowOf(p)
		if err != nil {
			return err, 0
		}
		return wrap(st.Values(ctx, sids, w))
	}
	return nil, httpd.StatusBadRequest
}

// namesOf is every name of a kind, or with a match parameter those its
// fnmatch pattern matches (an empty one matching none), as libpcp_web's
// series_map_keys filters them.
func namesOf(ctx context.Context, st *series.Store, mapName string, p url.Values) ([]string, error) {
	if p.Has("match") {
		return st.NamesMatching(ctx, mapName, p.Get("match"))
	}
	return st.AllNames(ctx, mapName)
}

// windowOf reads /series/values' time window from a request's
// parameters, by libpcp_web's rules (series.ValuesWindow).
func windowOf(p url.Values) (*series.Window, error) {
	return series.ValuesWindow(func(keys ...string) (string, bool) {
		for _, k := range keys {
			if p.Has(k) {
				return p.Get(k), true
			}
		}
		return "", false
	})
}

// errNoSeries is libpcp_web's -EINVAL for values of no series (none
// given, or only a match pattern): PCP's pmproxy answers a bare
// {"success":false}.
var errNoSeries = errors.New("no series")

type errString string

func (e errString) Error() string { return string(e) }

// labelValuesJSON is /series/labels?names=: {name:[values..],..} in the
// order asked, values as their JSON text.
type labelValuesJSON struct {
	names []string
	vals  [][]string
}

func (l labelValuesJSON) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, n := range l.names {
		if i > 0 {
			b = append(b, ',')
		}
		// The name is the request's: quoted as JSON, never spliced.
		q, err := json.Marshal(n)
		if err != nil {
			return nil, err
		}
		b = append(b, q...)
		b = append(b, `:[`+strings.Join(l.vals[i], ",")+`]`...)
	}
	return append(b, '}'), nil
}

func labelValues(ctx context.Context, st *series.Store, names []string) (any, int) {
	out := labelValuesJSON{}
	for _, n := range names {
		vs, err := st.LabelValues(ctx, n)
		if err != nil {
			return err, 0
		}
		if len(vs) == 0 {
			continue
		}
		out.names = append(out.names, n)
		out.vals = append(out.vals, vs)
	}
	return out, 0
}

// requestParams is a request's parameters as pmproxy reads them: the URL's
// query, or for a POST without one the body (at most maxBody bytes) in the
// same form.
func requestParams(r *httpd.Request) (url.Values, error) {
	params := r.URL.Query()
	if r.Method == httpd.MethodPost && r.URL.RawQuery == "" {
		body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
		if err != nil {
			return nil, err
		}
		return url.ParseQuery(string(body))
	}
	return params, nil
}

// repr is a JSON string as PCP's pmproxy quotes one (sdscatrepr).
func repr(s string) string { return string(webid.AppendRepr(nil, s)) }
