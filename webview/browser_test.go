package webview_test

import (
	"context"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pmproxy"
	"github.com/gopcp/gopcp/webapi"
	"github.com/gopcp/gopcp/webview"
)

func TestMain(m *testing.M) { os.Exit(testbed.Main(m)) }

// chromium runs Debian's chromium headless on url with a budget of
// virtual time (the page's timers run that long, network waits paused)
// and extra arguments (--dump-dom, --screenshot=...).
func chromium(t *testing.T, pageURL string, args ...string) string {
	t.Helper()
	bin, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv(testbed.RequireEnv) == "1" {
			t.Fatal("no chromium: ", err)
		}
		t.Skip("no chromium: ", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	all := append([]string{"--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
		"--user-data-dir=" + t.TempDir(), "--virtual-time-budget=12000", "--window-size=1280,800"}, args...)
	cmd := exec.CommandContext(ctx, bin, append(all, pageURL)...)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	return string(out)
}

var chartRe = regexp.MustCompile(`<div class="chart" data-metric="kernel\.all\.load" data-samples="(\d+)">`)

// TestBrowserChartsLoad opens the view in a real browser against a
// private PCP pmcd with PCP's Linux agent, asks for a chart of
// kernel.all.load and a search of kernel.all, and checks the DOM once the
// page has run: the chart has been drawn from several fetches, its legend
// names the three load averages, and the search listed the metric. It
// keeps a screenshot (GOPCP_WEBVIEW_SHOT names where; docs/ shows one).
func TestBrowserChartsLoad(t *testing.T) {
	bed := testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(), testbed.LinuxAgent()}})
	api := webapi.New(webapi.Options{})
	defer api.Close()
	mux := pmproxy.NewMux(api)
	mux.Handle("/", webview.Handler())
	srv := httptest.NewServer(mux)
	defer srv.Close()
	page := srv.URL + "/?" + url.Values{"hostspec": {bed.Host()}, "metrics": {"kernel.all.load,kernel.all.cpu.user"}, "search": {"kernel.all"}}.Encode()

	dom := chromium(t, page, "--dump-dom")
	m := chartRe.FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("no kernel.all.load chart in the page:\n%s", dom)
	}
	if n, _ := strconv.Atoi(m[1]); n < 3 {
		t.Errorf("kernel.all.load drawn from %d fetches, want several", n)
	}
	for _, want := range []string{"1 minute", "5 minute", "15 minute", `data-metric="kernel.all.cpu.user"`,
		`<li data-metric="kernel.all.load">`, "connected to "} {
		if !strings.Contains(dom, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if t.Failed() {
		t.Logf("page:\n%s", dom)
	}

	shot := filepath.Join(t.TempDir(), "webview.png")
	chromium(t, page, "--screenshot="+shot)
	b, err := os.ReadFile(shot)
	if err != nil || len(b) < 1000 || string(b[1:4]) != "PNG" {
		t.Fatalf("no screenshot: %v (%d bytes)", err, len(b))
	}
	if keep := os.Getenv("GOPCP_WEBVIEW_SHOT"); keep != "" {
		if err := os.WriteFile(keep, b, 0o644); err != nil {
			t.Error(err)
		}
	}
}
