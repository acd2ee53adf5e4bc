package bench

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestPMProxyMappings shows where each server's resident memory is, by
// mapping, once it is idle after a first context and fetch: PCP's
// pmproxy, ours as go build makes it and built with CGO_ENABLED=0 (with
// GOPCP_BENCH_BEFORE, another checkout's both ways). It runs with
// GOPCP_BENCH_MAPS=1; GOPCP_MAPS_HOLD names a file the test writes the
// servers' process ids into and then waits, the servers running, until
// that file is removed (for pagemap and perf to look at them). What it
// checks: PCP's pmproxy and ours built with cgo map the C library and
// its loader; ours built with CGO_ENABLED=0 maps neither.
func TestPMProxyMappings(t *testing.T) {
	if os.Getenv("GOPCP_BENCH_MAPS") != "1" {
		t.Skip("GOPCP_BENCH_MAPS=1 runs the pmproxy mapping breakdown")
	}
	bed := testbed.StartPMCD(t, testbed.Options{})
	c := &http.Client{Timeout: 60 * time.Second}
	hs := "hostspec=" + bed.Host()
	type side struct {
		name string
		bin  string
		libc bool // whether it maps the C library and loader
	}
	sides := []side{{name: "PCP pmproxy", libc: true}, {"gopcp pmproxy", buildOurPMProxy(t, true, false), true},
		{"gopcp pmproxy, CGO_ENABLED=0", buildOurPMProxy(t, false, false), false}}
	if before := os.Getenv("GOPCP_BENCH_BEFORE"); before != "" {
		sides = append(sides, side{"gopcp pmproxy before", buildPMProxyIn(t, before, true, false), true},
			side{"gopcp pmproxy before, CGO_ENABLED=0", buildPMProxyIn(t, before, false, false), false})
	}
	var pids []string
	for _, s := range sides {
		var srv running
		if s.bin == "" {
			srv = runPCPPMProxy(t, bed)
		} else {
			srv = runOurPMProxy(t, s.bin, bed)
		}
		if _, ok := burstContext(c, srv.url, hs); !ok {
			t.Fatalf("%s: first fetch failed", s.name)
		}
		libc, loader, err := mapsLibc(srv.pid)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if libc != s.libc || loader != s.libc {
			t.Errorf("%s maps the C library %v and its loader %v, want %v", s.name, libc, loader, s.libc)
		}
		pids = append(pids, fmt.Sprintf("%d %s %s", srv.pid, strings.ReplaceAll(s.name, " ", "_"), s.bin))
		defer func(name string, pid int) {
			t.Logf("%s: %v\n%s", name, readMem(pid), mapsTable(pid))
		}(s.name, srv.pid)
	}
	time.Sleep(6 * time.Second)
	if hold := os.Getenv("GOPCP_MAPS_HOLD"); hold != "" {
		if err := os.WriteFile(hold, []byte(strings.Join(pids, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		for {
			if _, err := os.Stat(hold); err != nil {
				break
			}
			time.Sleep(time.Second)
		}
	}
}

// mapsLibc says whether process pid maps the C library (libc.so.N, or
// libc-V.so of older glibcs) and a dynamic loader (ld-linux*.so*,
// ld-musl*), from /proc/PID/maps.
func mapsLibc(pid int) (libc, loader bool, err error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/maps", pid))
	if err != nil {
		return false, false, err
	}
	for l := range strings.Lines(string(b)) {
		f := strings.Fields(l)
		if len(f) < 6 {
			continue
		}
		name := filepath.Base(f[5])
		switch {
		case strings.HasPrefix(name, "libc.so") || strings.HasPrefix(name, "libc-"):
			libc = true
		case strings.HasPrefix(name, "ld-linux") || strings.HasPrefix(name, "ld-musl"):
			loader = true
		}
	}
	return libc, loader, nil
}

// mapsTable is a process's resident KiB by mapped file (anonymous
// mappings together), from /proc/PID/smaps: Rss, and of it Anonymous.
func mapsTable(pid int) string {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/smaps", pid))
	rss, anon := map[string]int{}, map[string]int{}
	var order []string
	cur := ""
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) >= 5 && strings.Contains(f[0], "-") && !strings.HasSuffix(f[0], ":"):
			cur = "[anon]"
			if len(f) >= 6 {
				cur = filepath.Base(f[5])
			}
			if _, ok := rss[cur]; !ok {
				order = append(order, cur)
				rss[cur] = 0
			}
		case len(f) >= 2 && f[0] == "Rss:":
			var n int
			fmt.Sscan(f[1], &n)
			rss[cur] += n
		case len(f) >= 2 && f[0] == "Anonymous:":
			var n int
			fmt.Sscan(f[1], &n)
			anon[cur] += n
		}
	}
	var out strings.Builder
	for _, k := range order {
		if rss[k] > 0 {
			fmt.Fprintf(&out, "  %-28s %6d KiB (anonymous %d)\n", k, rss[k], anon[k])
		}
	}
	return out.String()
}
