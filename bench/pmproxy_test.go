package bench

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/proxybed"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestPMProxySideBySide puts PCP's pmproxy and ours (built and run as a
// process, as deployed: once as go build makes it, once with
// CGO_ENABLED=0, which leaves libc out) in front of one private PCP pmcd
// and measures, in one run:
//
//   - resident memory (measureMem): idle, while rounds of 10,000 contexts
//     are made (150 a second, each with polltimeout=0.5, so that both
//     servers expire and forget them as they go), after each round has
//     expired, and after 1,000 concurrent fetches on one context; each
//     server started afresh for each of its runs, the runs alternating
//     between the servers (A B C A B C), so that a change in the machine
//     falls on all;
//   - /pmapi/fetch latency (sequential, one context) and throughput (8
//     clients), in rounds alternating between the servers.
//
// A server that dies is reported (PCP's pmproxy 6.0.3 dies of SIGSEGV
// during the churn in most runs) and started again for what follows; the
// runs are then compared over the contexts all of them served. It only
// runs with GOPCP_BENCH=1 (GOPCP_BENCH_RUNS runs of each, default 2;
// GOPCP_BENCH_ROUNDS churn rounds a run, default 2); docs/pmproxy.md has
// the figures of a run. GOPCP_BENCH_BEFORE names another checkout (a
// worktree of main) whose pmproxy is measured beside, built both ways,
// and timed too: a before-and-after in one run. For shorter or closer
// looks: GOPCP_BENCH_CHURN contexts a round instead of 10,000;
// GOPCP_BENCH_ONLY, a regular expression, keeps the servers whose names
// it matches; GOPCP_BENCH_ENV adds settings to our servers' environment
// ("GOGC=25"); GOPCP_BENCH_TRACE names a directory where our servers,
// built with -tags memtrace, write the runtime's memory figures every
// 100 ms, a file per server and run.
func TestPMProxySideBySide(t *testing.T) {
	if os.Getenv("GOPCP_BENCH") != "1" {
		t.Skip("GOPCP_BENCH=1 runs the pmproxy side-by-side measurement")
	}
	runs, rounds := envInt("GOPCP_BENCH_RUNS", 2), envInt("GOPCP_BENCH_ROUNDS", 2)
	bed := testbed.StartPMCD(t, testbed.Options{})
	trace := os.Getenv("GOPCP_BENCH_TRACE")
	ours, oursNoCgo := buildOurPMProxy(t, true, trace != ""), buildOurPMProxy(t, false, trace != "")
	started := 0
	// runOurs starts one of our servers with the bench's settings.
	runOurs := func(name, bin string) running {
		started++
		var w io.Writer
		if trace != "" {
			f, err := os.Create(filepath.Join(trace, fmt.Sprintf("%02d %s.log", started, name)))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { f.Close() })
			w = f
		}
		return runOurPMProxyWith(t, bin, bed, strings.Fields(os.Getenv("GOPCP_BENCH_ENV")), w)
	}
	c := &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	hs := "hostspec=" + bed.Host()
	mem := []memSide{
		{"PCP pmproxy", func() running { return runPCPPMProxy(t, bed) }},
		{"gopcp pmproxy", func() running { return runOurs("gopcp pmproxy", ours) }},
		{"gopcp pmproxy, CGO_ENABLED=0", func() running { return runOurs("gopcp pmproxy, CGO_ENABLED=0", oursNoCgo) }},
	}
	before := os.Getenv("GOPCP_BENCH_BEFORE")
	var old string
	if before != "" {
		old = buildPMProxyIn(t, before, true, trace != "")
		oldNoCgo := buildPMProxyIn(t, before, false, trace != "")
		mem = append(mem,
			memSide{"gopcp pmproxy before", func() running { return runOurs("gopcp pmproxy before", old) }},
			memSide{"gopcp pmproxy before, CGO_ENABLED=0", func() running { return runOurs("gopcp pmproxy before, CGO_ENABLED=0", oldNoCgo) }})
	}
	if only := os.Getenv("GOPCP_BENCH_ONLY"); only != "" {
		re := regexp.MustCompile(only)
		mem = slices.DeleteFunc(mem, func(s memSide) bool { return !re.MatchString(s.name) })
	}
	var memRuns []memRun
	for i := 0; i < runs; i++ {
		for _, s := range mem {
			r := measureMem(t, s, rounds, hs, c)
			t.Logf("%s run %d: idle %v, died %q", r.side, i+1, r.idle, r.died)
			memRuns = append(memRuns, r)
		}
	}

	pcpProxy := proxybed.Start(t, bed)
	oursRun := runOurs("gopcp pmproxy", ours)
	type side struct {
		name   string
		url    string
		exited func() string
		pid    int
		ctxid  string
		lat    []time.Duration
		rates  []float64
		fails  int
		cpu    time.Duration // the server's, over all the fetches
	}
	sides := []*side{
		{name: "PCP pmproxy", url: pcpProxy.URL(), exited: pcpProxy.Exited, pid: pcpProxy.PID()},
		{name: "gopcp pmproxy", url: oursRun.url, exited: oursRun.exited, pid: oursRun.pid},
	}
	if old != "" {
		oldRun := runOurs("gopcp pmproxy before", old)
		sides = append(sides, &side{name: "gopcp pmproxy before", url: oldRun.url, exited: oldRun.exited, pid: oldRun.pid})
	}
	get := func(url string) (int, string) {
		resp, err := c.Get(url)
		if err != nil {
			return 0, err.Error()
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp.StatusCode, string(b)
	}
	for _, s := range sides {
		_, body := get(s.url + "/pmapi/context?" + hs + "&polltimeout=3600")
		s.ctxid = strings.TrimPrefix(strings.SplitN(body, ",", 2)[0], `{"context":`)
	}
	trounds := envInt("GOPCP_BENCH_TROUNDS", 4) / 2 * 2 // even, for the median
	const seq, tput = 500, 2000
	for r := 0; r < trounds; r++ {
		for _, s := range sides {
			path := s.url + "/pmapi/" + s.ctxid + "/fetch?names=sample.long.one,sample.bin"
			cpu0 := serverCPU(s.pid)
			for i := 0; i < seq; i++ {
				t0 := time.Now()
				if code, _ := get(path); code != 200 {
					s.fails++
				}
				s.lat = append(s.lat, time.Since(t0))
			}
			t0 := time.Now()
			s.fails += parallel(8, tput, func(int) bool {
				code, _ := get(path)
				return code == 200
			})
			s.rates = append(s.rates, float64(tput)/time.Since(t0).Seconds())
			s.cpu += serverCPU(s.pid) - cpu0
		}
	}
	var timeRows []string
	for _, s := range sides {
		sort.Slice(s.lat, func(i, j int) bool { return s.lat[i] < s.lat[j] })
		sort.Float64s(s.rates)
		n := len(s.lat)
		status := ""
		if e := s.exited(); e != "" {
			status = " (" + e + ")"
		}
		timeRows = append(timeRows, fmt.Sprintf("| %s%s | %v | %v | %.0f | %v | %d |", s.name, status,
			s.lat[n/2].Round(time.Microsecond), s.lat[n*99/100].Round(time.Microsecond),
			(s.rates[trounds/2-1]+s.rates[trounds/2])/2, (s.cpu/time.Duration(trounds*(seq+tput))).Round(time.Microsecond), s.fails))
	}
	table := memTable(memRuns) + "\n" +
		"| server | /pmapi/fetch p50 | p99 | fetches/s, 8 clients (median of rounds) | server CPU per fetch | failed |\n| --- | --- | --- | --- | --- | --- |\n" +
		strings.Join(timeRows, "\n")
	t.Log("\n" + table)
	if out := os.Getenv("GOPCP_BENCH_OUT"); out != "" {
		_ = os.WriteFile(out, []byte(table+"\n"), 0o644)
	}
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// parallel runs n calls of f over w workers and returns how many failed.
func parallel(w, n int, f func(int) bool) int {
	var mu sync.Mutex
	failed := 0
	work := make(chan int)
	var wg sync.WaitGroup
	for i := 0; i < w; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				if !f(j) {
					mu.Lock()
					failed++
					mu.Unlock()
				}
			}
		}()
	}
	for i := 0; i < n; i++ {
		work <- i
	}
	close(work)
	wg.Wait()
	return failed
}
