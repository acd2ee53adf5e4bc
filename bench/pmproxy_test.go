package bench

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/proxybed"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestPMProxySideBySide puts PCP's pmproxy and ours (built and run as a
// process, as deployed) in front of one private PCP pmcd and measures, in
// one run:
//
//   - resident memory while 10,000 contexts are made (150 a second, each
//     with polltimeout=0.5, so that both servers expire and forget them as
//     they go), at every thousandth, and after they have expired;
//   - resident memory after 1,000 concurrent fetches on one context;
//   - /pmapi/fetch latency (sequential, one context) and throughput (8
//     clients), in rounds alternating between the two servers so that a
//     change in the machine's load falls on both.
//
// A server that dies is reported (PCP's pmproxy 6.0.3 has died of SIGSEGV
// during the churn) and, for the timing, started again. It only runs with
// GOPCP_BENCH=1; docs/pmproxy.md has the figures of a run.
func TestPMProxySideBySide(t *testing.T) {
	if os.Getenv("GOPCP_BENCH") != "1" {
		t.Skip("GOPCP_BENCH=1 runs the pmproxy side-by-side measurement")
	}
	bed := testbed.StartPMCD(t, testbed.Options{})
	pcpProxy := proxybed.Start(t, bed)
	oursURL, oursPID := startOurPMProxy(t)
	type side struct {
		name   string
		url    string
		pid    int
		exited func() string
		ctxid  string
		lat    []time.Duration
		rates  []float64
		fails  int
	}
	sides := []*side{
		{name: "PCP pmproxy", url: pcpProxy.URL(), pid: pcpProxy.PID(), exited: pcpProxy.Exited},
		{name: "gopcp pmproxy", url: oursURL, pid: oursPID, exited: func() string { return "" }},
	}
	c := &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	get := func(url string) (int, string) {
		resp, err := c.Get(url)
		if err != nil {
			return 0, err.Error()
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp.StatusCode, string(b)
	}
	hs := "hostspec=" + bed.Host()
	var memRows []string
	for _, s := range sides {
		rss0, _ := procKiB(s.pid)
		series := []string{strconv.Itoa(rss0)}
		pace := time.NewTicker(time.Second / 150)
		failed, died := 0, ""
		for i := 1; i <= 10000 && died == ""; i++ {
			<-pace.C
			if code, _ := get(s.url + "/pmapi/context?" + hs + "&polltimeout=0.5"); code != 200 {
				failed++
				if e := s.exited(); e != "" {
					died = fmt.Sprintf("died (%s) at context %d", e, i)
				}
			}
			if i%1000 == 0 {
				rss, _ := procKiB(s.pid)
				series = append(series, strconv.Itoa(rss))
			}
		}
		pace.Stop()
		time.Sleep(4 * time.Second) // past the poll timeout and a sweep
		after, _ := procKiB(s.pid)
		if died != "" {
			t.Logf("%s %s; log tail:\n%s", s.name, died, tail(pcpProxy.Log(), 1500))
			pcpProxy = proxybed.Start(t, bed)
			s.url, s.pid, s.exited = pcpProxy.URL(), pcpProxy.PID(), pcpProxy.Exited
			died += "; started again for what follows"
		}
		_, body := get(s.url + "/pmapi/context?" + hs + "&polltimeout=3600")
		ctxid := strings.TrimPrefix(strings.SplitN(body, ",", 2)[0], `{"context":`)
		cf := parallel(1000, 1000, func(int) bool {
			code, _ := get(s.url + "/pmapi/" + ctxid + "/fetch?names=sample.long.one,sample.bin")
			return code == 200
		})
		r, h := procKiB(s.pid)
		conc, hwm := fmt.Sprintf("%d (%d failed)", r, cf), strconv.Itoa(h)
		status := "lived"
		if died != "" {
			status = died
		}
		memRows = append(memRows, fmt.Sprintf("| %s | %s | %d failed, %s | %d | %s | %s |",
			s.name, strings.Join(series, " "), failed, status, after, conc, hwm))
		s.ctxid = ctxid
	}
	const rounds, seq, tput = 4, 500, 2000
	for r := 0; r < rounds; r++ {
		for _, s := range sides {
			path := s.url + "/pmapi/" + s.ctxid + "/fetch?names=sample.long.one,sample.bin"
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
		}
	}
	var timeRows []string
	for _, s := range sides {
		sort.Slice(s.lat, func(i, j int) bool { return s.lat[i] < s.lat[j] })
		sort.Float64s(s.rates)
		n := len(s.lat)
		timeRows = append(timeRows, fmt.Sprintf("| %s | %v | %v | %.0f | %d |", s.name,
			s.lat[n/2].Round(time.Microsecond), s.lat[n*99/100].Round(time.Microsecond),
			(s.rates[rounds/2-1]+s.rates[rounds/2])/2, s.fails))
	}
	table := "| server | RSS KiB: start, then every 1,000 contexts | churn | RSS KiB after expiry | RSS KiB after 1,000 concurrent fetches | peak RSS KiB |\n" +
		"| --- | --- | --- | --- | --- | --- |\n" + strings.Join(memRows, "\n") + "\n\n" +
		"| server | /pmapi/fetch p50 | p99 | fetches/s, 8 clients (median of rounds) | failed |\n| --- | --- | --- | --- | --- |\n" +
		strings.Join(timeRows, "\n")
	t.Log("\n" + table)
	if out := os.Getenv("GOPCP_BENCH_OUT"); out != "" {
		_ = os.WriteFile(out, []byte(table+"\n"), 0o644)
	}
}

func tail(s string, n int) string { return s[max(0, len(s)-n):] }

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

// procKiB reads a process's resident and peak resident memory.
func procKiB(pid int) (rss, hwm int) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return -1, -1
	}
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		if len(f) < 2 {
			continue
		}
		n, _ := strconv.Atoi(f[1])
		switch f[0] {
		case "VmRSS:":
			rss = n
		case "VmHWM:":
			hwm = n
		}
	}
	return rss, hwm
}

// startOurPMProxy builds cmd/pmproxy and runs it on a private port.
func startOurPMProxy(t *testing.T) (string, int) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "pmproxy")
	build := exec.Command("go", "build", "-o", bin, "../cmd/pmproxy")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	conf := filepath.Join(dir, "pmproxy.conf")
	if err := os.WriteFile(conf, []byte(proxybed.Conf), 0o644); err != nil {
		t.Fatal(err)
	}
	port, release, err := testbed.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	cmd := exec.Command(bin, "-f", "-p", strconv.Itoa(port), "-c", conf, "-l", filepath.Join(dir, "pmproxy.log"), "-s", filepath.Join(dir, "s"))
	cmd.Env = append(os.Environ(), "PCP_TMP_DIR="+dir) // its statistics stay out of the system's
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	url := "http://localhost:" + strconv.Itoa(port)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for ctx.Err() == nil {
		if resp, err := http.Get(url + "/pmapi/children?prefix="); err == nil {
			resp.Body.Close()
			return url, cmd.Process.Pid
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("our pmproxy did not answer")
	return "", 0
}
