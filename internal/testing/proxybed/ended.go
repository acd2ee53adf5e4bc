package proxybed

import (
	"fmt"
	"net/http"
	"net/http/httputil"
	"net/url"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// logTail is how many of the log's last lines Ended quotes.
const logTail = 15

// keptAnswered is how many of the last answered requests Ended names.
const keptAnswered = 3

// TimerRace is what PCP 6.0.3's pmproxy dying of a signal under our
// tests has been, each time it was caught (docs/pmproxy.md): its
// libpcp_web starts and stops libuv timers on the event loop from
// pmproxy's worker threads (every /pmapi request restarts its
// context's expiry timer there), racing the loop's own timer work, and
// the timer heap is corrupted.
const TimerRace = "PCP 6.0.3's libpcp_web restarts its contexts' libuv timers " +
	"from pmproxy's worker threads, racing the event loop (docs/pmproxy.md; " +
	"fixed after 6.0.3 by performancecopilot/pcp#2555)"

// Ended says how the proxy ended, "" while it runs: its exit status or
// signal, how long it had run, the requests Forward was passing on when
// the first of them found it gone (the ones it died in) and the last it
// had answered, and the end of its log. A test whose reference died
// under it puts this in its failure or its log.
func (p *Proxy) Ended() string {
	select {
	case <-p.done:
	default:
		return ""
	}
	var b strings.Builder
	ps := p.cmd.ProcessState
	b.WriteString(pcptest.HowEnded(ps))
	ws, _ := ps.Sys().(syscall.WaitStatus)
	if ws.CoreDump() {
		fmt.Fprintf(&b, " (core dumped, core_pattern permitting in %s)", p.Dir)
	}
	fmt.Fprintf(&b, " %.1fs after it started", p.ended.Sub(p.started).Seconds())
	if s := p.seen.String(); s != "" {
		b.WriteString("; " + s)
	}
	if ws.Signaled() {
		switch ws.Signal() {
		case syscall.SIGSEGV, syscall.SIGBUS, syscall.SIGABRT:
			b.WriteString("; likely " + TimerRace)
		}
	}
	lines := strings.Split(strings.TrimRight(p.Log(), "\n"), "\n")
	b.WriteString("\npmproxy.log ends:\n  " + strings.Join(lines[max(0, len(lines)-logTail):], "\n  "))
	return b.String()
}

// Forward is a reverse proxy to the proxy's REST API that notes what it
// passes on, for Ended. A request the proxy does not answer gets 502.
func (p *Proxy) Forward() http.Handler {
	target := &url.URL{Scheme: "http", Host: p.Addr()}
	rp := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) { r.SetURL(target) },
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			p.seen.failed(r, err)
			w.WriteHeader(http.StatusBadGateway)
		},
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := p.seen.begin(r)
		rp.ServeHTTP(w, r)
		p.seen.end(id)
	})
}

// requests is what Forward has passed on: those in flight, the last
// answered, and at the first failure, what was in flight then.
type requests struct {
	mu       sync.Mutex
	next     int
	n        int
	inFlight map[int]string
	answered []string // the last keptAnswered, oldest first
	// firstFail is the first request not answered, with why; diedIn
	// the requests in flight at that moment.
	firstFail string
	diedIn    []string
}

func describe(r *http.Request) string { return r.Method + " " + r.URL.RequestURI() }

func (q *requests) begin(r *http.Request) int {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.inFlight == nil {
		q.inFlight = map[int]string{}
	}
	q.next++
	q.n++
	q.inFlight[q.next] = describe(r)
	return q.next
}

func (q *requests) end(id int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.firstFail == "" {
		q.answered = append(q.answered, q.inFlight[id])
		if len(q.answered) > keptAnswered {
			q.answered = q.answered[1:]
		}
	}
	delete(q.inFlight, id)
}

func (q *requests) failed(r *http.Request, err error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.firstFail != "" {
		return
	}
	q.firstFail = fmt.Sprintf("%s (%v)", describe(r), err)
	for _, s := range q.inFlight {
		q.diedIn = append(q.diedIn, s)
	}
	slices.Sort(q.diedIn)
}

// String says what Ended reports of the requests, "" when Forward
// passed none on.
func (q *requests) String() string {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.n == 0 {
		return ""
	}
	s := fmt.Sprintf("%d requests passed on", q.n)
	if q.firstFail != "" {
		s += fmt.Sprintf("; the first unanswered: %s; in flight then: %s", q.firstFail, strings.Join(q.diedIn, ", "))
	}
	if len(q.answered) > 0 {
		s += "; the last answered before: " + strings.Join(q.answered, ", ")
	}
	return s
}

// EndedWithin is Ended once the proxy has ended or d has passed: a
// process that dies closes its sockets before it is reaped, so a test
// that saw a refusal gives the reaping a moment to show.
func (p *Proxy) EndedWithin(d time.Duration) string {
	select {
	case <-p.done:
	case <-time.After(d):
	}
	return p.Ended()
}
