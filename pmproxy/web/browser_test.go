package web

import (
	"context"
	"fmt"
	"image/png"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gopcp/gopcp/httpd"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pmapi"
	"github.com/gopcp/gopcp/pmproxy"
	"github.com/gopcp/gopcp/webapi"
)

// attempts bounds the page loads a check makes before it fails; each
// load gives the page a larger virtual time budget.
const attempts = 5

// view is our pmproxy with the web view, in front of a private pmcd.
type view struct {
	bed  *testbed.PMCD
	base string // http://127.0.0.1:PORT
	// lose, when set, makes pmproxy's next fetch ask for a context no
	// pmproxy knows, as if the page's had expired: pmproxy answers
	// "unknown context identifier".
	lose atomic.Bool

	mu    sync.Mutex
	paths map[string]int // requests by path, context numbers as CTX
}

var ctxPathRE = regexp.MustCompile(`^/pmapi/[0-9]+/`)

// asked returns the paths requested so far and how often.
func (v *view) asked() map[string]int {
	v.mu.Lock()
	defer v.mu.Unlock()
	out := map[string]int{}
	for p, n := range v.paths {
		out[p] = n
	}
	return out
}

// startView starts gopcp's pmcd with the linux agent in-process on a
// private port, and our pmproxy (pmproxy.NewMux with this package at
// "/", as cmd/pmproxy mounts it) on a free port, until the test ends.
func startView(t *testing.T) *view {
	t.Helper()
	in := testbed.Need(t)
	pmns := filepath.Join(in.Var("PCP_VAR_DIR"), "pmns", "root_linux")
	v := &view{bed: testbed.StartGoPMCD(t, testbed.Options{Agents: []testbed.Agent{
		testbed.PMCDAgent(), testbed.GoDSOAgent("linux", 60, "linux_init", pmns),
	}})}
	api := webapi.New(webapi.Options{
		Open: func(ctx context.Context, spec string) (pmapi.Source, error) {
			return pmapi.NewContext(ctx, pmapi.KindHost, spec)
		},
	})
	mux := pmproxy.NewMux(api)
	mux.Handle("/", Handler())
	fetchRE := regexp.MustCompile(`^/pmapi/[0-9]+/fetch$`)
	v.paths = map[string]int{}
	handler := httpd.HandlerFunc(func(w httpd.ResponseWriter, r *httpd.Request) {
		v.mu.Lock()
		v.paths[ctxPathRE.ReplaceAllString(r.URL.Path, "/pmapi/CTX/")]++
		v.mu.Unlock()
		if fetchRE.MatchString(r.URL.Path) && v.lose.CompareAndSwap(true, false) {
			r.URL.Path = "/pmapi/4294967295/fetch"
		}
		mux.ServeHTTP(w, r)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- pmproxy.Serve(ctx, pmproxy.Config{HTTP: handler}, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("pmproxy: %v", err)
		}
		api.Close()
	})
	v.base = "http://" + ln.Addr().String()
	return v
}

// page is the web view's address with the query given.
func (v *view) page(q url.Values) string { return v.base + "/?" + q.Encode() }

// load opens the page in headless chromium until done accepts its DOM,
// at most attempts times, and returns the last DOM and done's last
// complaint ("" when accepted).
func load(t *testing.T, bin, page string, done func(dom string) string) (string, string) {
	t.Helper()
	return loadWhile(t, bin, page, nil, done)
}

// loadWhile is load that gives up early once gone, when given, says the
// server behind the page has ended: no later load could be accepted.
func loadWhile(t *testing.T, bin, page string, gone func() string, done func(dom string) string) (string, string) {
	t.Helper()
	var dom, why string
	for i := 1; i <= attempts; i++ {
		if gone != nil && gone() != "" {
			return dom, why
		}
		out, err := chromium(t, bin, page, 5000*i, "--dump-dom")
		dom = out
		if err != nil {
			why = fmt.Sprintf("chromium: %v", err)
			continue
		}
		if why = done(dom); why == "" {
			return dom, ""
		}
		t.Logf("load %d of %s: %s", i, page, why)
	}
	return dom, why
}

// loadDrawn says what is missing for a chart of metric with the named
// instances, each with at least min points plotted.
func loadDrawn(dom, metric string, insts []string, min int) string {
	c := chart(dom, metric)
	if c == "" {
		state, text := status(dom)
		return fmt.Sprintf("no chart of %s (status %s: %q)", metric, state, text)
	}
	got := plotted(c)
	for _, name := range insts {
		n, ok := got[name]
		if !ok {
			return fmt.Sprintf("%s: no series %q among %v", metric, name, got)
		}
		if n < min {
			return fmt.Sprintf("%s: series %q has %d points plotted, want %d or more", metric, name, n, min)
		}
	}
	if len(got) != len(insts) {
		return fmt.Sprintf("%s: series %v, want %v", metric, got, insts)
	}
	return ""
}

// TestBrowser loads the web view in Debian's chromium, headless, against
// our pmproxy and a private pmcd, and reads what the page drew from its
// DOM.
func TestBrowser(t *testing.T) {
	bin := needChromium(t)
	v := startView(t)
	load1 := []string{"1 minute", "5 minute", "15 minute"}

	t.Run("kernel.all.load", func(t *testing.T) {
		q := url.Values{"host": {v.bed.Host()}, "metric": {"kernel.all.load,kernel.all.cpu.user"}}
		dom, why := load(t, bin, v.page(q), func(dom string) string {
			if why := loadDrawn(dom, "kernel.all.load", load1, 2); why != "" {
				return why
			}
			return loadDrawn(dom, "kernel.all.cpu.user", []string{"value"}, 1)
		})
		if why != "" {
			t.Fatalf("%s\nDOM:\n%s", why, dom)
		}
		c := chart(dom, "kernel.all.load")
		canvas := elements(c, "canvas")
		if len(canvas) != 1 {
			t.Fatalf("kernel.all.load: %d canvases, want 1", len(canvas))
		}
		if n, _ := strconv.Atoi(canvas[0].attrs["data-draws"]); n < 2 {
			t.Errorf("kernel.all.load drawn %d times, want 2 or more", n)
		}
		for _, s := range elements(dom, "section") {
			if m := s.attrs["data-metric"]; m != "" && s.attrs["data-rate"] != strconv.FormatBool(m == "kernel.all.cpu.user") {
				t.Errorf("%s: data-rate %q (kernel.all.load is instant, kernel.all.cpu.user a counter)", m, s.attrs["data-rate"])
			}
		}
		if state, text := status(dom); state != "ok" {
			t.Errorf("status %s: %q", state, text)
		}
		// The namespace's root from /pmapi/children.
		var roots []string
		for _, li := range elements(dom, "li") {
			if n := li.attrs["data-name"]; n != "" && !strings.Contains(n, ".") {
				roots = append(roots, n)
			}
		}
		if !contains(roots, "kernel") || !contains(roots, "pmcd") {
			t.Errorf("namespace root %v lacks kernel or pmcd", roots)
		}
	})

	t.Run("hostspec and metrics", func(t *testing.T) {
		q := url.Values{"hostspec": {v.bed.Host()}, "metrics": {"kernel.all.load"}}
		dom, why := load(t, bin, v.page(q), func(dom string) string {
			return loadDrawn(dom, "kernel.all.load", load1, 2)
		})
		if why != "" {
			t.Fatalf("%s\nDOM:\n%s", why, dom)
		}
	})

	t.Run("search", func(t *testing.T) {
		for _, c := range []struct {
			text string
			want []string
		}{
			{"kernel.all.l", []string{"kernel.all.lastpid", "kernel.all.load"}},
			{"kernel.all.load", []string{"kernel.all.load"}},
			{"ker", []string{"kernel"}},
			{"nosuch", nil},
		} {
			q := url.Values{"host": {v.bed.Host()}, "search": {c.text}}
			dom, why := load(t, bin, v.page(q), func(dom string) string {
				res := results(dom)
				if res == nil {
					return "no search results yet"
				}
				if strings.Join(res, " ") != strings.Join(c.want, " ") {
					return fmt.Sprintf("search %q found %q, want %q", c.text, res, c.want)
				}
				return ""
			})
			if why != "" {
				t.Fatalf("%s\nDOM:\n%s", why, dom)
			}
		}
	})

	t.Run("unknown metric", func(t *testing.T) {
		// Beside a chart that goes on drawing: its fetches must not
		// replace the error.
		q := url.Values{"host": {v.bed.Host()}, "metric": {"no.such.metric,kernel.all.load"}}
		dom, why := load(t, bin, v.page(q), func(dom string) string {
			if state, text := status(dom); state != "error" || !strings.Contains(text, "no.such.metric") || !strings.Contains(text, "Unknown metric name") {
				return fmt.Sprintf("status %s: %q", state, text)
			}
			return loadDrawn(dom, "kernel.all.load", load1, 2)
		})
		if why != "" {
			t.Fatalf("%s\nDOM:\n%s", why, dom)
		}
		if chart(dom, "no.such.metric") != "" {
			t.Errorf("a chart of no.such.metric")
		}
	})

	t.Run("unreachable host", func(t *testing.T) {
		port, release, err := testbed.FreePort()
		if err != nil {
			t.Fatal(err)
		}
		// held to the end: no other test's daemon may bind it meanwhile
		t.Cleanup(release)
		q := url.Values{"host": {"localhost:" + strconv.Itoa(port)}, "metric": {"kernel.all.load"}}
		dom, why := load(t, bin, v.page(q), func(dom string) string {
			if state, text := status(dom); state != "error" || !strings.Contains(text, "cannot connect to PMCD") {
				return fmt.Sprintf("status %s: %q", state, text)
			}
			return ""
		})
		if why != "" {
			t.Fatalf("%s\nDOM:\n%s", why, dom)
		}
	})

	t.Run("context lost", func(t *testing.T) {
		v.lose.Store(true)
		q := url.Values{"host": {v.bed.Host()}, "metric": {"kernel.all.load"}}
		dom, why := load(t, bin, v.page(q), func(dom string) string {
			if why := loadDrawn(dom, "kernel.all.load", load1, 2); why != "" {
				return why
			}
			if !strings.Contains(dom, `data-renewed="1"`) {
				state, text := status(dom)
				return fmt.Sprintf("no context made again (status %s: %q)", state, text)
			}
			return ""
		})
		if why != "" {
			t.Fatalf("%s\nDOM:\n%s", why, dom)
		}
		if v.lose.Load() {
			t.Errorf("the page never fetched")
		}
	})

	// The page asks pmproxy for nothing but /pmapi/* (and its own files).
	t.Run("only /pmapi", func(t *testing.T) {
		asked := v.asked()
		for p := range asked {
			switch {
			case strings.HasPrefix(p, "/pmapi/"):
			case p == "/" || p == "/favicon.ico":
			default:
				if _, err := static.Open("static" + p); err != nil {
					t.Errorf("the page asked for %s, neither /pmapi/* nor one of its files", p)
				}
			}
		}
		for _, p := range []string{"/pmapi/context", "/pmapi/CTX/children", "/pmapi/CTX/metric", "/pmapi/CTX/indom", "/pmapi/CTX/fetch"} {
			if asked[p] == 0 {
				t.Errorf("the page never asked for %s", p)
			}
		}
		t.Logf("requests by path: %v", asked)
	})

	t.Run("screenshot", func(t *testing.T) {
		shot := filepath.Join(t.ArtifactDir(), "pmproxy-webview.png")
		q := url.Values{"host": {v.bed.Host()}, "search": {"kernel.all.l"},
			"metric": {"kernel.all.load,kernel.all.cpu.user,kernel.all.cpu.sys,mem.util.free"}}
		var why string
		for i := 1; i <= attempts; i++ {
			os.Remove(shot)
			if _, err := chromium(t, bin, v.page(q), 20000, "--window-size=1280,800", "--hide-scrollbars", "--screenshot="+shot); err != nil {
				why = err.Error()
				continue
			}
			if why = checkShot(shot, 1280, 800); why == "" {
				break
			}
		}
		if why != "" {
			t.Fatal(why)
		}
		t.Logf("screenshot: %s", shot)
	})
}

// checkShot says what is wrong with a screenshot: not a PNG of the size
// asked for, or too few colours to hold charts.
func checkShot(path string, w, h int) string {
	f, err := os.Open(path)
	if err != nil {
		return err.Error()
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return fmt.Sprintf("%s: %v", path, err)
	}
	if b := img.Bounds(); b.Dx() != w || b.Dy() != h {
		return fmt.Sprintf("%s: %v, want %dx%d", path, b, w, h)
	}
	colours := map[[4]uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, a := img.At(x, y).RGBA()
			colours[[4]uint32{r, g, bl, a}] = true
		}
	}
	if len(colours) < 50 {
		return fmt.Sprintf("%s: %d colours: blank?", path, len(colours))
	}
	return ""
}

var resultsListRE = regexp.MustCompile(`(?s)<ul id="results"[^>]*>(.*?)</ul>`)

// results lists the names the search found, empty when it found none
// ("no metric starts with"), nil before it has answered.
func results(dom string) []string {
	m := resultsListRE.FindStringSubmatch(dom)
	if m == nil || m[1] == "" {
		return nil
	}
	found := []string{}
	for _, li := range elements(m[1], "li") {
		if n := li.attrs["data-name"]; n != "" {
			found = append(found, n)
		}
	}
	return found
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
