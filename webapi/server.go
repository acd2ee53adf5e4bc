package webapi

import (
	"context"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gopcp/gopcp/httpd"
	"github.com/gopcp/gopcp/internal/webid"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi/derived"
)

// Server answers /pmapi/* and /metrics. Its sweeping goroutine runs until
// Close.
type Server struct {
	opts Options
	reg  *registry
	now  func() time.Time

	stop chan struct{}
	wg   sync.WaitGroup
	once sync.Once
}

// New makes a Server and starts its sweep of expired contexts.
func New(opts Options) *Server {
	opts.setDefaults()
	s := &Server{opts: opts, reg: newRegistry(), now: time.Now, stop: make(chan struct{})}
	s.wg.Add(1)
	go s.sweeper()
	return s
}

// Close stops the sweep and closes every web context.
func (s *Server) Close() {
	s.once.Do(func() {
		close(s.stop)
		s.wg.Wait()
		for _, c := range s.reg.all() {
			c.close()
		}
	})
}

// Contexts is the number of web contexts alive (made and not yet swept).
func (s *Server) Contexts() int { return s.reg.count() }

// sweeper closes expired contexts' PMAPI contexts within a fraction of
// the sweep interval, so that what they hold is freed promptly, and
// forgets them every sweep interval, as pmproxy's garbage collection does
// (until then they answer "expired context identifier").
func (s *Server) sweeper() {
	defer s.wg.Done()
	tick := min(s.opts.Sweep, 250*time.Millisecond)
	t := time.NewTicker(tick)
	defer t.Stop()
	next := s.now().Add(s.opts.Sweep)
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			now := s.now()
			for _, c := range s.reg.expiredOpen(now) {
				c.close()
			}
			if !now.Before(next) {
				next = now.Add(s.opts.Sweep)
				gone, scanned, dropped := s.reg.sweep(now)
				for _, c := range gone {
					c.close()
				}
				if s.opts.OnSweep != nil {
					s.opts.OnSweep(scanned, dropped)
				}
			}
		}
	}
}

// maxBody bounds a POSTed store value or derived metric configuration.
const maxBody = 1 << 20

// command is one of the REST API's commands.
type command int

const (
	cmdNone command = iota
	cmdContext
	cmdProfile
	cmdScrape
	cmdMetric
	cmdDerive
	cmdFetch
	cmdInDom
	cmdStore
	cmdChildren
)

// commands in pmproxy's order: a command matches by prefix, so "metrics"
// must come before "metric".
var commands = []struct {
	name string
	cmd  command
}{
	{"context", cmdContext}, {"profile", cmdProfile}, {"metrics", cmdScrape},
	{"metric", cmdMetric}, {"derive", cmdDerive}, {"fetch", cmdFetch},
	{"indom", cmdInDom}, {"store", cmdStore}, {"children", cmdChildren},
}

// route parses a path as pmwebapi_lookup_rest_command does.
func route(path string) (cmd command, ctxid string, compat bool) {
	if rest, ok := strings.CutPrefix(path, "/pmapi/"); ok {
		if len(rest) > 0 && rest[0] >= '0' && rest[0] <= '9' {
			i := 0
			for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
				i++
			}
			if i >= len(rest) || rest[i] != '/' {
				return cmdNone, "", false
			}
			ctxid, rest = rest[:i], rest[i+1:]
		}
		if strings.HasPrefix(rest, "_") {
			rest, compat = rest[1:], true
		}
		for _, c := range commands {
			if strings.HasPrefix(rest, c.name) {
				return c.cmd, ctxid, compat
			}
		}
	}
	if strings.HasPrefix(path, "/metrics") {
		return cmdScrape, "", false
	}
	return cmdNone, "", false
}

// request is one REST call being answered.
type request struct {
	s      *Server
	w      httpd.ResponseWriter
	r      *httpd.Request
	ctx    context.Context
	params *params
	ctxid  string // from the URL or the context parameter
	client string // the client's address, for the per-client bound
	basic  credentials
	rep    reply
}

func (q *request) param(name string) (string, bool) {
	return q.params.get(name)
}

// ServeHTTP answers one request.
func (s *Server) ServeHTTP(w httpd.ResponseWriter, r *httpd.Request) {
	cmd, ctxid, compat := route(r.URL.Path)
	if cmd == cmdNone {
		htmlError(w, httpd.StatusBadRequest, "unknown", "no handler for URL")
		return
	}
	params, err := parseParams(r.URL.RawQuery)
	defer params.release()
	if err != nil {
		htmlError(w, httpd.StatusBadRequest, "webapi", "failed to process URL")
		return
	}
	basic, authOK := basicAuth(r.Header.Values("Authorization"))
	if !authOK {
		if r.Method == httpd.MethodOptions {
			w.Header().Set("Content-Length", "0")
			w.WriteHeader(httpd.StatusUnauthorized)
			return
		}
		(&reply{}).done(w, "", statusAgain, nil)
		return
	}
	if r.Method == httpd.MethodPost && (cmd == cmdDerive || cmd == cmdStore) {
		body, err := io.ReadAll(httpd.MaxBytesReader(r.Body, maxBody))
		if err != nil {
			htmlError(w, httpd.StatusRequestEntityTooLarge, "webapi", "request body too large")
			return
		}
		key := "value"
		if cmd == cmdDerive {
			key = "expr"
		}
		params.setDefault(key, string(body))
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.opts.RequestTimeout)
	defer cancel()
	q := &request{s: s, w: w, r: r, ctx: ctx, params: params, ctxid: ctxid, client: host, basic: basic}
	q.rep.compat = compat
	q.rep.buf = getReplyBuf()
	// The response writer has copied the answer by the time the
	// handler returns.
	defer func() { putReplyBuf(q.rep.buf) }()
	if v, ok := q.param("client"); ok {
		q.rep.clientID = webid.AppendUnicode(nil, v)
	}
	if v, ok := q.param("context"); ok {
		q.ctxid = v
	}
	if !q.required(cmd, r.Method) {
		htmlError(w, httpd.StatusBadRequest, "webapi", "failed to process URL")
		return
	}
	if r.Method == httpd.MethodOptions || r.Method == httpd.MethodHead || r.Method == httpd.MethodTrace {
		q.rep.done(w, "", statusOK, nil)
		return
	}
	switch cmd {
	case cmdContext:
		q.context()
	case cmdMetric:
		q.metric()
	case cmdFetch:
		q.fetch()
	case cmdInDom:
		q.indom()
	case cmdChildren:
		q.children()
	case cmdProfile:
		q.profile()
	case cmdStore:
		q.store()
	case cmdDerive:
		q.derive()
	case cmdScrape:
		q.scrape()
	}
}

// required checks the parameters each command cannot do without, as
// pmwebapi_setup_request_parameters does (a missing one is the HTML 400).
func (q *request) required(cmd command, method string) bool {
	has := func(names ...string) bool {
		for _, n := range names {
			if _, ok := q.params.get(n); ok {
				return true
			}
		}
		return false
	}
	post := method == httpd.MethodPost
	switch cmd {
	case cmdFetch:
		return has("name", "names", "pmid", "pmids")
	case cmdInDom:
		return has("indom", "name")
	case cmdProfile:
		return has("expr")
	case cmdStore:
		if !has("name", "pmid") {
			return false
		}
		return post || has("value")
	case cmdDerive:
		return post || has("name", "expr")
	}
	return true
}

// failure ends a request with an error.
func (q *request) failure(id string, status int, msg string) {
	q.rep.done(q.w, id, status, &msg)
}

// use finds the context the request names, or makes one from its
// parameters, and holds it for the request: the caller must call
// release. On failure the answer has been written.
func (q *request) use() (*webContext, bool) {
	s := q.s
	if q.ctxid == "" {
		c, ok := q.newContext()
		if !ok {
			return nil, false
		}
		return c, true
	}
	key, err := strconv.ParseUint(q.ctxid, 10, 64)
	if err != nil {
		q.failure(q.ctxid, statusInval, "invalid context identifier: "+q.ctxid)
		return nil, false
	}
	if key > 0xffffffff {
		key = 0xffffffff // strtoul's overflow, as an unsigned int
	}
	c := s.reg.lookup(uint32(key))
	if c == nil {
		q.failure(q.ctxid, statusNotConn, "unknown context identifier: "+strconv.FormatUint(key, 10))
		return nil, false
	}
	c.busy.Add(1)
	if c.expiredIgnoringBusy(s.now()) {
		c.busy.Add(-1)
		q.failure(q.ctxid, statusNotConn, "expired context identifier: "+c.origin)
		return nil, false
	}
	if status, msg, ok := checkAuth(c.user, c.pass, q.basic); !ok {
		c.busy.Add(-1)
		q.failure(q.ctxid, status, msg)
		return nil, false
	}
	c.mu.Lock()
	if c.src == nil {
		// The sweep closed it between the check above and the lock.
		c.mu.Unlock()
		c.busy.Add(-1)
		q.failure(q.ctxid, statusNotConn, "expired context identifier: "+c.origin)
		return nil, false
	}
	c.touch(s.now())
	return c, true
}

func (c *webContext) expiredIgnoringBusy(now time.Time) bool {
	return now.UnixNano()-c.lastUse.Load() > int64(c.timeout)
}

// release ends the request's hold on its context.
func (q *request) release(c *webContext) {
	c.keep()
	c.touch(q.s.now())
	c.mu.Unlock()
	c.busy.Add(-1)
}

// newContext makes a web context from the hostspec (or hostname) and
// polltimeout parameters, as webgroup_new_context does.
func (q *request) newContext() (*webContext, bool) {
	s := q.s
	spec, ok := q.param("hostspec")
	if !ok {
		spec, ok = q.param("hostname")
	}
	if !ok {
		spec = "localhost"
	}
	timeout := s.opts.PollTimeout
	if v, ok := q.param("polltimeout"); ok {
		secs, err := strconv.ParseFloat(strings.TrimLeft(v, " \t\n"), 64)
		if err != nil {
			q.failure("", statusInval, "invalid timeout requested in polltime")
			return nil, false
		}
		ms := secs * 1000
		if ms < 0 || ms != ms {
			ms = 0
		}
		timeout = time.Duration(ms) * time.Millisecond
		if timeout > s.opts.MaxPollTimeout || ms > float64(s.opts.MaxPollTimeout/time.Millisecond) {
			timeout = s.opts.MaxPollTimeout
		}
	}
	spec, user, pass := contextAuth(spec, q.basic)
	if status, msg, ok := checkAuth(user, pass, q.basic); !ok {
		q.failure("", status, msg)
		return nil, false
	}
	id, err := s.reg.reserve(q.client, &s.opts)
	if err != nil {
		q.rep.limit(q.w, err.(*limitError))
		return nil, false
	}
	src, err := s.opts.Open(q.ctx, spec)
	if err != nil {
		s.reg.release(id, q.client)
		q.failure("", statusNotConn, "cannot connect to PMCD: "+pcp.TextOf(err))
		return nil, false
	}
	c := &webContext{id: id, origin: strconv.FormatUint(uint64(id), 10), client: q.client,
		timeout: timeout, src: derived.Wrap(src, nil), maxCached: s.opts.MaxCached, user: user, pass: pass}
	if err := c.setup(q.ctx); err != nil {
		c.close()
		s.reg.release(id, q.client)
		q.failure("", statusNotConn, "failed to get context labels: "+pcp.TextOf(err))
		return nil, false
	}
	c.touch(s.now())
	c.busy.Add(1)
	c.mu.Lock()
	s.reg.add(c)
	return c, true
}

// splitList splits a comma-separated parameter as sdssplitlen does (empty
// pieces kept), bounded by MaxNames.
func (q *request) splitList(v string) ([]string, bool) {
	if v == "" {
		return nil, true
	}
	if strings.Count(v, ",") >= q.s.opts.MaxNames {
		return nil, false
	}
	return strings.Split(v, ","), true
}
