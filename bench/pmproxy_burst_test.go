package bench

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestPMProxyBurst measures the burst of measureMem alone, many times:
// each run a fresh server, a first context and fetch, 1,000 concurrent
// fetches on that context, resident memory at once and 6 s later; the
// servers (PCP's pmproxy, ours as go build makes it and built with
// CGO_ENABLED=0, and with GOPCP_BENCH_BEFORE another checkout's both
// ways) take turns run by run. It runs
// with GOPCP_BENCH_BURST=1: GOPCP_BURST_RUNS runs of each (default 10),
// GOPCP_BURST_LOAD busy-loop processes beside for the whole test
// (default none), GOPCP_BURST_DUMP=1 ends each of our servers right
// after its burst with SIGQUIT and reports its goroutines by what they
// wait on and the collector's last trace line (instead of the 6 s
// figure); GOPCP_BURST_ENV adds settings to our servers' environment
// ("GOGC=25"); GOPCP_BURST_TRACE=1 builds ours with -tags memtrace and
// logs the runtime's memory figures before the burst, at its largest
// anonymous memory and at its end.
func TestPMProxyBurst(t *testing.T) {
	if os.Getenv("GOPCP_BENCH_BURST") != "1" {
		t.Skip("GOPCP_BENCH_BURST=1 runs the pmproxy burst measurement")
	}
	runs, load := envInt("GOPCP_BURST_RUNS", 10), envInt("GOPCP_BURST_LOAD", 0)
	if os.Getenv("GOPCP_BURST_LOAD") == "" {
		load = 0
	}
	dump := os.Getenv("GOPCP_BURST_DUMP") == "1"
	trace := os.Getenv("GOPCP_BURST_TRACE") == "1"
	bed := testbed.StartPMCD(t, testbed.Options{})
	c := &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	hs := "hostspec=" + bed.Host()
	type side struct {
		name string
		bin  string // ours
		conc []memKiB
		sett []memKiB
		cpu  []time.Duration // per fetch of each burst
		fail int
	}
	sides := []*side{{name: "PCP pmproxy"}, {name: "gopcp pmproxy", bin: buildOurPMProxy(t, true, trace)},
		{name: "gopcp pmproxy, CGO_ENABLED=0", bin: buildOurPMProxy(t, false, trace)}}
	if before := os.Getenv("GOPCP_BENCH_BEFORE"); before != "" {
		sides = append(sides, &side{name: "gopcp pmproxy before", bin: buildPMProxyIn(t, before, true, false)},
			&side{name: "gopcp pmproxy before, CGO_ENABLED=0", bin: buildPMProxyIn(t, before, false, false)})
	}
	for i := 0; i < load; i++ {
		busy := exec.Command("sh", "-c", "while :; do :; done")
		busy.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		if err := pcptest.StartKept(busy); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { busy.Process.Kill(); busy.Wait() })
	}
	for i := 0; i < runs; i++ {
		for _, s := range sides {
			var srv running
			var errBuf bytes.Buffer
			sb := &syncBuffer{b: &errBuf}
			switch {
			case s.bin == "":
				srv = runPCPPMProxy(t, bed)
			case dump:
				srv = runOurPMProxyWith(t, s.bin, bed, []string{"GODEBUG=gctrace=1"}, &errBuf)
			case trace:
				srv = runOurPMProxyWith(t, s.bin, bed, strings.Fields(os.Getenv("GOPCP_BURST_ENV")), sb)
			case os.Getenv("GOPCP_BURST_ENV") != "":
				srv = runOurPMProxyWith(t, s.bin, bed, strings.Fields(os.Getenv("GOPCP_BURST_ENV")), nil)
			default:
				srv = runOurPMProxy(t, s.bin, bed)
			}
			ctxid, ok := burstContext(c, srv.url, hs)
			if !ok {
				t.Fatalf("%s: first fetch failed", s.name)
			}
			time.Sleep(time.Second)
			traced := 0
			if trace {
				traced = len(traceLines(sb.String()))
			}
			before := anonMaps(srv.pid)
			cpu0 := serverCPU(srv.pid)
			s.fail += parallel(1000, 1000, func(int) bool {
				resp, err := c.Get(srv.url + "/pmapi/" + ctxid + "/fetch?names=sample.long.one,sample.bin")
				if err != nil {
					return false
				}
				drain(resp)
				return resp.StatusCode == 200
			})
			m := readMem(srv.pid)
			s.conc = append(s.conc, m)
			s.cpu = append(s.cpu, perOp(cpu0, serverCPU(srv.pid), 1000))
			if trace && s.bin != "" {
				time.Sleep(150 * time.Millisecond) // the tracer's next line
				lines := traceLines(sb.String())
				if traced > 0 && len(lines) > traced {
					during := lines[traced:]
					top := during[0]
					for _, l := range during {
						if traceAnon(l) > traceAnon(top) {
							top = l
						}
					}
					t.Logf("%s run %d: memtrace before %s\nlargest %s\nlast %s", s.name, i+1, lines[traced-1], top, during[len(during)-1])
				}
			}
			if os.Getenv("GOPCP_BURST_SMAPS") == "1" {
				t.Logf("%s run %d: anonymous KiB by mapping, before -> after the burst: %s", s.name, i+1, mapsDiff(before, anonMaps(srv.pid)))
			}
			if dump && s.bin != "" {
				_ = syscall.Kill(srv.pid, syscall.SIGQUIT)
				for deadline := time.Now().Add(10 * time.Second); srv.exited() == "" && time.Now().Before(deadline); {
					time.Sleep(20 * time.Millisecond)
				}
				t.Logf("%s run %d: right after %v; %s", s.name, i+1, m, goroutineCensus(errBuf.String()))
				srv.stop()
				continue
			}
			time.Sleep(6 * time.Second)
			s.sett = append(s.sett, readMem(srv.pid))
			srv.stop()
			t.Logf("%s run %d: right after %v, 6 s later %v", s.name, i+1, m, s.sett[len(s.sett)-1])
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d runs each, %d busy loops beside; KiB min / median / max\n", runs, load)
	b.WriteString("| server | RSS right after | anon right after | RSS 6 s later | anon 6 s later | CPU µs per fetch | failed |\n| --- | --- | --- | --- | --- | --- | --- |\n")
	for _, s := range sides {
		cpu := make([]memKiB, len(s.cpu))
		for i, d := range s.cpu {
			cpu[i].rss = int(d.Microseconds())
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %d |\n", s.name,
			spread(s.conc, func(m memKiB) int { return m.rss }), spread(s.conc, func(m memKiB) int { return m.anon }),
			spread(s.sett, func(m memKiB) int { return m.rss }), spread(s.sett, func(m memKiB) int { return m.anon }),
			spread(cpu, func(m memKiB) int { return m.rss }), s.fail)
	}
	t.Log("\n" + b.String())
	if out := os.Getenv("GOPCP_BENCH_OUT"); out != "" {
		_ = os.WriteFile(out, []byte(b.String()), 0o644)
	}
}

// burstContext makes the context the burst fetches on, and fetches once.
func burstContext(c *http.Client, url, hs string) (string, bool) {
	resp, err := c.Get(url + "/pmapi/context?" + hs + "&polltimeout=3600")
	if err != nil {
		return "", false
	}
	var body bytes.Buffer
	body.ReadFrom(resp.Body)
	resp.Body.Close()
	ctxid := strings.TrimPrefix(strings.SplitN(body.String(), ",", 2)[0], `{"context":`)
	resp, err = c.Get(url + "/pmapi/" + ctxid + "/fetch?names=sample.long.one,sample.bin")
	if err != nil {
		return "", false
	}
	drain(resp)
	return ctxid, resp.StatusCode == 200
}

func drain(resp *http.Response) {
	var b [4096]byte
	for {
		if _, err := resp.Body.Read(b[:]); err != nil {
			break
		}
	}
	resp.Body.Close()
}

// spread is "min / median / max" of f over ms.
func spread(ms []memKiB, f func(memKiB) int) string {
	if len(ms) == 0 {
		return "—"
	}
	v := make([]int, len(ms))
	for i, m := range ms {
		v[i] = f(m)
	}
	slices.Sort(v)
	return fmt.Sprintf("%d / %d / %d", v[0], v[len(v)/2], v[len(v)-1])
}

var gcLine = regexp.MustCompile(`(?m)^gc \d+ .*$`)

// goroutineCensus counts a goroutine dump's goroutines by what they
// wait on, with the last collector trace line before it.
func goroutineCensus(dump string) string {
	counts := map[string]int{}
	total := 0
	for _, g := range strings.Split(dump, "\n\ngoroutine ")[1:] {
		total++
		key := "other"
		switch {
		case strings.Contains(g, "sync.(*Mutex).Lock"):
			key = "on a mutex"
		case strings.Contains(g, "httpd.(*Server).worker(") && strings.Contains(g, "[select"):
			key = "idle workers"
		case strings.Contains(g, "httpd.(*Server).worker("):
			key = "busy workers"
		}
		counts[key]++
	}
	var parts []string
	for _, k := range []string{"idle workers", "busy workers", "on a mutex", "other"} {
		parts = append(parts, fmt.Sprintf("%s %d", k, counts[k]))
	}
	last := ""
	if m := gcLine.FindAllString(dump, -1); len(m) > 0 {
		last = m[len(m)-1]
	}
	return fmt.Sprintf("goroutines %d (%s); last gc: %s", total, strings.Join(parts, ", "), last)
}

// anonMaps is a process's anonymous resident KiB by mapping, with its
// thread count.
func anonMaps(pid int) map[string]int {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/smaps", pid))
	out := map[string]int{}
	cur := ""
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) >= 5 && strings.Contains(f[0], "-") && !strings.HasSuffix(f[0], ":"):
			cur = f[0]
			if len(f) >= 6 {
				cur += " " + f[5]
			}
		case len(f) >= 2 && f[0] == "Anonymous:":
			var n int
			fmt.Sscan(f[1], &n)
			if n > 0 {
				out[cur] += n
			}
		}
	}
	st, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for _, l := range strings.Split(string(st), "\n") {
		if f := strings.Fields(l); len(f) == 2 && f[0] == "Threads:" {
			fmt.Sscan(f[1], new(int))
			var n int
			fmt.Sscan(f[1], &n)
			out["threads"] = n
		}
	}
	return out
}

func mapsDiff(a, b map[string]int) string {
	var keys []string
	for k := range b {
		keys = append(keys, k)
	}
	for k := range a {
		if _, ok := b[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var parts []string
	for _, k := range keys {
		if a[k] != b[k] {
			parts = append(parts, fmt.Sprintf("%s %d->%d", k, a[k], b[k]))
		}
	}
	return strings.Join(parts, "; ")
}

// syncBuffer is a bytes.Buffer a process's output and the test share.
type syncBuffer struct {
	mu sync.Mutex
	b  *bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// traceLines are the memtrace lines of a server's standard error.
func traceLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "memtrace ") {
			out = append(out, l)
		}
	}
	return out
}

// traceAnon is a memtrace line's anonymous resident KiB.
func traceAnon(l string) int {
	for _, f := range strings.Fields(l) {
		if v, ok := strings.CutPrefix(f, "rssanon="); ok {
			n, _ := strconv.Atoi(v)
			return n
		}
	}
	return 0
}
