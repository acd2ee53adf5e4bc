package web

import (
	"bytes"
	"context"
	"html"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// browserTimeout bounds one run of chromium, generous for a loaded
// machine; a run that needs more is killed with its process group.
const browserTimeout = 3 * time.Minute

// needChromium returns Debian's chromium, or skips the test (fails it
// under GOPCP_REQUIRE_PCP=1: scripts/setup-pcp.sh installs it).
func needChromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	const why = "chromium is not installed (scripts/setup-pcp.sh installs it)"
	if pcptest.Required() {
		t.Fatalf("GOPCP_REQUIRE_PCP=1 but %s", why)
	}
	t.Skip(why)
	return ""
}

// chromium runs the browser headless on url with extra arguments and a
// private profile, and returns its standard output (the DOM, with
// --dump-dom). Virtual time lets the page's timers run ahead while its
// requests are answered, so a budget of N ms lets a page polling every
// second fetch about N/1000 times, however slow the machine.
func chromium(t *testing.T, bin, url string, budgetMS int, extra ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), browserTimeout)
	defer cancel()
	args := append([]string{
		"--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-extensions", "--disable-background-networking",
		"--user-data-dir=" + t.TempDir(),
		"--virtual-time-budget=" + strconv.Itoa(budgetMS),
	}, extra...)
	cmd := exec.CommandContext(ctx, bin, append(args, url)...)
	cmd.Env = append(os.Environ(), "TMPDIR="+chromiumTemp(t))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		// The browser's helpers are its process group, ours alone.
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	cmd.WaitDelay = 10 * time.Second
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if err != nil {
		t.Logf("chromium: %v; its last words:\n%s", err, tail(errb.String(), 20))
	}
	return out.String(), err
}

// chromiumSocket is what chromium adds to its TMPDIR for its singleton
// socket, and socketPathMax the longest path a Unix socket can have.
const (
	chromiumSocket = "/org.chromium.Chromium.XXXXXX/SingletonSocket"
	socketPathMax  = 107
)

// chromiumTemp makes the directory chromium's TMPDIR names, removed when
// the test ends: its singleton files go there, not where a killed browser
// would leave them. t.TempDir's names carry the test's and subtest's, and
// under a TMPDIR longer than /tmp the socket's path outgrew what a socket
// can have (chromium aborts), so this one has a short name of its own.
func chromiumTemp(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "cr")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if n := len(dir + chromiumSocket); n > socketPathMax {
		t.Fatalf("chromium's singleton socket in %s would have a path of %d bytes, more than a socket's %d: TMPDIR is too long", dir, n, socketPathMax)
	}
	return dir
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// element is one start tag of the dumped DOM.
type element struct {
	tag   string
	attrs map[string]string
	end   int // offset just after the tag in the DOM
}

var (
	tagRE  = regexp.MustCompile(`<([a-z][a-z0-9]*)((?:\s+[a-zA-Z_:][-a-zA-Z0-9_:.]*(?:="[^"]*")?)*)\s*/?>`)
	attrRE = regexp.MustCompile(`([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:="([^"]*)")?`)
)

// elements lists the start tags named tag in dom (chromium writes
// attributes double-quoted, with &quot; inside).
func elements(dom, tag string) []element {
	var els []element
	for _, m := range tagRE.FindAllStringSubmatchIndex(dom, -1) {
		if dom[m[2]:m[3]] != tag {
			continue
		}
		attrs := map[string]string{}
		for _, a := range attrRE.FindAllStringSubmatch(dom[m[4]:m[5]], -1) {
			attrs[a[1]] = html.UnescapeString(a[2])
		}
		els = append(els, element{tag: tag, attrs: attrs, end: m[1]})
	}
	return els
}

// chart returns the part of dom inside the chart of metric, or "".
func chart(dom, metric string) string {
	for _, s := range elements(dom, "section") {
		if s.attrs["data-metric"] == metric {
			rest := dom[s.end:]
			if i := strings.Index(rest, "</section>"); i >= 0 {
				return rest[:i]
			}
			return rest
		}
	}
	return ""
}

// plotted maps each series' instance name in a chart to the points drawn.
func plotted(chartDOM string) map[string]int {
	got := map[string]int{}
	for _, li := range elements(chartDOM, "li") {
		if !strings.Contains(" "+li.attrs["class"]+" ", " series ") {
			continue
		}
		n, _ := strconv.Atoi(li.attrs["data-plotted"])
		got[li.attrs["data-instance"]] = n
	}
	return got
}

var statusRE = regexp.MustCompile(`(?s)<div id="status"([^>]*)>(.*?)</div>`)

// status returns the status line's state attribute and text.
func status(dom string) (state, text string) {
	m := statusRE.FindStringSubmatch(dom)
	if m == nil {
		return "", ""
	}
	for _, a := range attrRE.FindAllStringSubmatch(m[1], -1) {
		if a[1] == "data-state" {
			state = a[2]
		}
	}
	return state, html.UnescapeString(m[2])
}
