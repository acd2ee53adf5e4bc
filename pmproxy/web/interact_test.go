package web

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestBrowserInteractive drives the web view in chromium step by step, as
// a person would, on real time: open the namespace tree down to
// kernel.all.load, add a second chart through the search box, hide an
// instance, remove a chart, and connect to the host again by another
// hostspec.
func TestBrowserInteractive(t *testing.T) {
	bin := needChromium(t)
	v := startView(t)
	d := startDevtools(t, bin)
	page := v.base + "/?" + url.Values{"host": {v.bed.Host()}}.Encode()
	if _, err := d.call("Page.navigate", map[string]any{"url": page}, time.Minute); err != nil {
		t.Fatal(err)
	}
	state := `document.getElementById("status").textContent + "\n" + document.getElementById("charts").outerHTML`
	has := func(selector string) string { return `document.querySelector(` + strconv.Quote(selector) + `)` }
	click := func(selector string) {
		t.Helper()
		d.waitFor(t, has(selector), state)
		if err := d.eval(has(selector)+`.click()`, nil); err != nil {
			t.Fatal(err)
		}
	}
	load := `section.chart[data-metric="kernel.all.load"]`
	cpu := `section.chart[data-metric="kernel.all.cpu.user"]`
	plottedAtLeast := func(chart string, n int) string {
		return `(function () {
		  var li = document.querySelectorAll('` + chart + ` li.series:not(.off)');
		  return li.length > 0 && Array.prototype.every.call(li, function (x) { return Number(x.dataset.plotted) >= ` + strconv.Itoa(n) + `; });
		}())`
	}

	// The tree, a level at a time, to a leaf that adds a chart.
	click(`#tree li[data-name="kernel"] > span`)
	click(`#tree li[data-name="kernel.all"] > span`)
	click(`#tree li[data-name="kernel.all.load"] > span`)
	d.waitFor(t, has(load+` li.series[data-instance="15 minute"]`), state)
	d.waitFor(t, plottedAtLeast(load, 2), state)
	var names []string
	if err := d.eval(`Array.from(document.querySelectorAll('`+load+` li.series')).map(function (x) { return x.dataset.instance; })`, &names); err != nil {
		t.Fatal(err)
	}
	if strings.Join(names, ",") != "1 minute,5 minute,15 minute" {
		t.Errorf("kernel.all.load's series %q", names)
	}

	// The search box adds a second chart: a counter, drawn as a rate.
	if err := d.eval(`(function () { var s = document.getElementById("search"); s.value = "kernel.all.cpu.us"; s.dispatchEvent(new Event("input")); }())`, nil); err != nil {
		t.Fatal(err)
	}
	click(`#results li[data-name="kernel.all.cpu.user"] > span`)
	d.waitFor(t, has(cpu+`[data-rate="true"]`), state)
	d.waitFor(t, plottedAtLeast(cpu, 2), state)
	d.waitFor(t, `location.search.indexOf("metric=kernel.all.load,kernel.all.cpu.user") >= 0`, `location.href`)

	// A click on a legend entry hides that instance; the others stay drawn.
	click(load + ` li.series[data-instance="5 minute"]`)
	d.waitFor(t, has(load+` li.series.off[data-instance="5 minute"][data-plotted="0"]`), state)
	d.waitFor(t, plottedAtLeast(load, 2), state)
	var hidden int
	if err := d.eval(`document.querySelectorAll('`+load+` li.series.off').length`, &hidden); err != nil {
		t.Fatal(err)
	}
	if hidden != 1 {
		t.Errorf("%d instances hidden, want 1", hidden)
	}

	// Removing a chart.
	click(cpu + ` h2 button`)
	d.waitFor(t, "!"+has(cpu), state)
	d.waitFor(t, `location.search.indexOf("kernel.all.cpu.user") < 0`, `location.href`)

	// Another hostspec for the same pmcd: a new context, the chart kept
	// and drawn afresh.
	other := "127.0.0.1:" + strconv.Itoa(v.bed.Port())
	if err := d.eval(`(function () {
	  document.getElementById("host").value = `+strconv.Quote(other)+`;
	  document.querySelector("#host-form button").click();
	}())`, nil); err != nil {
		t.Fatal(err)
	}
	d.waitFor(t, `document.getElementById("status").textContent.indexOf(`+strconv.Quote(other+": 1 chart")+`) === 0`, state)
	d.waitFor(t, plottedAtLeast(load, 2), state)
	d.waitFor(t, `location.search.indexOf("host="+encodeURIComponent(`+strconv.Quote(other)+`)) >= 0`, `location.href`)

	// A screenshot of the page on real time, after ten fetches or more.
	q := url.Values{"host": {v.bed.Host()}, "search": {"kernel.all.l"},
		"metric": {"kernel.all.load,kernel.all.cpu.user,kernel.all.cpu.sys,mem.util.free"}}
	size := map[string]any{"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": false}
	if _, err := d.call("Emulation.setDeviceMetricsOverride", size, time.Minute); err != nil {
		t.Fatal(err)
	}
	if _, err := d.call("Page.navigate", map[string]any{"url": v.page(q)}, time.Minute); err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"kernel.all.load", "kernel.all.cpu.user", "kernel.all.cpu.sys", "mem.util.free"} {
		d.waitFor(t, has(`section.chart[data-metric="`+m+`"] li.series`), state)
		d.waitFor(t, plottedAtLeast(`section.chart[data-metric="`+m+`"]`, 10), state)
	}
	res, err := d.call("Page.captureScreenshot", map[string]any{"format": "png"}, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	var shot struct{ Data []byte }
	if err := json.Unmarshal(res, &shot); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.ArtifactDir(), "pmproxy-webview-live.png")
	if err := os.WriteFile(path, shot.Data, 0o644); err != nil {
		t.Fatal(err)
	}
	if why := checkShot(path, 1280, 800); why != "" {
		t.Fatal(why)
	}
	t.Logf("screenshot: %s", path)
}

// TestBrowserContextExpiry lets pmproxy expire the page's context between
// fetches (a poll timeout of 1 s, a fetch every 3 s, on real time): each
// fetch meets "expired" or "unknown context identifier", and the page
// makes a new context and draws on, as grafana-pcp does.
func TestBrowserContextExpiry(t *testing.T) {
	bin := needChromium(t)
	v := startView(t)
	d := startDevtools(t, bin)
	q := url.Values{"host": {v.bed.Host()}, "metric": {"kernel.all.load"}, "interval": {"3"}, "polltimeout": {"1"}}
	if _, err := d.call("Page.navigate", map[string]any{"url": v.page(q)}, time.Minute); err != nil {
		t.Fatal(err)
	}
	state := `document.documentElement.outerHTML`
	d.waitFor(t, `document.getElementById("status") && Number(document.getElementById("status").dataset.renewed) >= 2`, state)
	d.waitFor(t, `(function () {
	  var li = document.querySelectorAll('section.chart[data-metric="kernel.all.load"] li.series');
	  return li.length === 3 && Array.prototype.every.call(li, function (x) { return Number(x.dataset.plotted) >= 2; });
	}())`, state)
	var st struct{ State, Text string }
	if err := d.eval(`({State: document.getElementById("status").dataset.state, Text: document.getElementById("status").textContent})`, &st); err != nil {
		t.Fatal(err)
	}
	if st.State != "ok" || !strings.Contains(st.Text, "context made again") {
		t.Errorf("status %s: %q", st.State, st.Text)
	}
	var contexts int
	if err := d.eval(`performance.getEntriesByType("resource").filter(function (e) { return /\/pmapi\/context\?/.test(e.name); }).length`, &contexts); err != nil {
		t.Fatal(err)
	}
	if contexts < 3 {
		t.Errorf("%d contexts made, want 3 or more (the first and two again)", contexts)
	}
}
