package main

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/redistest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestConfSwitchesLikePCP starts PCP 6.0.3's pmproxy and ours with one
// pmproxy.conf a row, both beside one private (empty) Redis, and requires
// the same answers: [pmseries] enabled does not decide whether /series/
// reaches Redis, [redis] enabled stops it only by the word "false", and
// [pmproxy] pcp.enabled and http.enabled, which PCP's pmproxy never reads,
// turn neither server off; both log the same line about Redis ("Redis
// slots, schema version setup" when [pmseries] says "true"), the line
// PCP's logs waited for as the case expects it. With "[redis] enabled = false" PCP's pmproxy
// dies of a segmentation fault on /series/metrics, so only ping is
// compared there.
func TestConfSwitchesLikePCP(t *testing.T) {
	srv := redistest.Start(t)
	redis := "[redis]\nservers = " + srv.Addr() + "\n"
	metrics := []string{"/series/ping", "/series/metrics?match=*"}
	const slots, schema = "Info: Redis slots setup", "Info: Redis slots, schema version setup"
	for _, c := range []struct {
		name, conf string
		paths      []string
		// proto: PCP's pminfo through the proxy as well
		proto bool
		// line: what PCP's pmproxy logs about Redis ("" none), which
		// the test waits for in its log: PCP's may log it after its
		// answers, so an empty log proves nothing until then
		line string
	}{
		{"pmseries unset", redis, metrics, false, ""},
		{"pmseries false", redis + "[pmseries]\nenabled = false\n", metrics, false, ""},
		{"pmseries yes", redis + "[pmseries]\nenabled = yes\n", metrics, false, ""},
		{"pmseries true", redis + "[pmseries]\nenabled = true\n", metrics, false, schema},
		{"discover true", redis + "[discover]\nenabled = true\npath = /nonexistent\n", metrics, false, slots},
		// RediSearch absent (Debian's Redis): no ", RediSearch"
		{"pmsearch true", redis + "[pmsearch]\nenabled = true\n[discover]\nenabled = true\npath = /nonexistent\n", metrics, false, slots},
		{"redis no", "[redis]\nenabled = no\nservers = " + srv.Addr() + "\n[pmseries]\nenabled = true\n", metrics, false, schema},
		{"redis false", "[redis]\nenabled = false\nservers = " + srv.Addr() + "\n", []string{"/series/ping"}, false, ""},
		{"pcp and http false", "[pmproxy]\npcp.enabled = false\nhttp.enabled = false\n[redis]\nenabled = false\n", []string{"/series/ping"}, true, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			pcps, pcpLog := startPCPConf(t, c.conf, nil)
			dir := t.TempDir()
			ours := startOursAt(t, c.conf, t.TempDir(), dir)
			for _, p := range c.paths {
				ws, wb := getSettled(t, pcps, p)
				gs, gb := getSettled(t, ours, p)
				if ws != gs || wb != gb {
					t.Errorf("GET %s: ours %d %q, PCP's %d %q", p, gs, gb, ws, wb)
				}
			}
			want := slotsLines(t, pcpLog)
			for deadline := time.Now().Add(time.Minute); want != c.line && time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
				want = slotsLines(t, pcpLog)
			}
			if want != c.line {
				t.Fatalf("PCP's pmproxy logged %q about Redis, the test expects %q", want, c.line)
			}
			// ours logs its line before it serves: no wait
			if got := slotsLines(t, filepath.Join(dir, "pmproxy.log")); got != want {
				t.Errorf("Redis lines logged: ours %q, PCP's %q", got, want)
			}
			if c.proto {
				bed := testbed.StartPMCD(t, testbed.Options{})
				want := pminfoVia(t, bed, pcps)
				if got := pminfoVia(t, bed, ours); got != want {
					t.Errorf("PCP's pminfo through ours:\n%s\nthrough PCP's:\n%s", got, want)
				}
			}
		})
	}
}

// slotsLines is the log's lines about Redis connections, without their
// time and process.
func slotsLines(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, "Redis") {
			if _, rest, ok := strings.Cut(l, ") "); ok {
				l = rest
			}
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// getSettled is a GET's status and body once the server answers 200, or
// its last answer after a minute: PCP's pmproxy reaches Redis after it
// starts serving.
func getSettled(t *testing.T, addr, path string) (int, string) {
	t.Helper()
	var status int
	var body string
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(200 * time.Millisecond) {
		r, err := http.Get("http://" + addr + path)
		if err == nil {
			b, _ := io.ReadAll(r.Body)
			r.Body.Close()
			status, body = r.StatusCode, string(b)
			if status == http.StatusOK {
				return status, body
			}
		}
		if time.Now().After(deadline) {
			if err != nil {
				t.Fatalf("GET %s%s: %v", addr, path, err)
			}
			return status, body
		}
	}
}

// pminfoVia is what PCP's pminfo prints of a sample metric from the bed's
// pmcd by way of the proxy at addr (PMPROXY_HOST, PMPROXY_PORT).
func pminfoVia(t *testing.T, bed *testbed.PMCD, addr string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testbed.RunTimeout)
	defer cancel()
	cmd, err := bed.Command(ctx, "pminfo", "-h", bed.Host(), "-f", "sample.long.one")
	if err != nil {
		t.Fatal(err)
	}
	cmd.Env = append(cmd.Env, proxyEnv(addr)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Errorf("pminfo via %s: %v", addr, err)
	}
	return strings.TrimSpace(string(out))
}
