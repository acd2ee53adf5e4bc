package bench

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/proxybed"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// memKiB is a process's resident memory, split as the kernel counts it:
// anonymous (the process's own heap, stacks and data) and file-backed
// (the pages of its binary and libraries it has mapped, shared with the
// page cache and with other processes mapping the same files); pss is
// the proportional set size, where a page mapped by n processes counts
// 1/n (PCP's shared libraries are mapped by other programs too).
type memKiB struct{ rss, anon, file, pss, hwm int }

func (m memKiB) String() string {
	return fmt.Sprintf("%d (%d+%d) %d", m.rss, m.anon, m.file, m.pss)
}

func readMem(pid int) memKiB {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return memKiB{-1, -1, -1, -1, -1}
	}
	var m memKiB
	m.pss = -1
	if r, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/smaps_rollup"); err == nil {
		for _, l := range strings.Split(string(r), "\n") {
			if f := strings.Fields(l); len(f) >= 2 && f[0] == "Pss:" {
				m.pss, _ = strconv.Atoi(f[1])
			}
		}
	}
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		if len(f) < 2 {
			continue
		}
		n, _ := strconv.Atoi(f[1])
		switch f[0] {
		case "VmRSS:":
			m.rss = n
		case "RssAnon:":
			m.anon = n
		case "RssFile:":
			m.file = n
		case "VmHWM:":
			m.hwm = n
		}
	}
	return m
}

// peak is the sample of highest RSS among the first n.
func peak(s []memKiB, n int) memKiB {
	var p memKiB
	for i, m := range s {
		if i < n && m.rss > p.rss {
			p = m
		}
	}
	return p
}

// running is one started server for one memory run.
type running struct {
	url    string
	pid    int
	exited func() string
	stop   func()
}

// memSide starts one server afresh for each run.
type memSide struct {
	name  string
	start func() running
}

// memRun is what one run of one server measured.
type memRun struct {
	side      string
	idle      memKiB
	rounds    [][]memKiB // per churn round, a sample every memEvery contexts
	expired   []memKiB   // after each round, once its contexts have expired
	served    int        // contexts made before the server died (all if it lived)
	died      string
	conc      memKiB // right after 1,000 concurrent fetches
	settled   memKiB // 6 s later
	concFails int
	hwm       int
	// CPU (user+system) the server used per context made in the churn
	// and per fetch of the burst.
	churnCPU, burstCPU time.Duration
}

const (
	memRate  = 150 // contexts a second
	memEvery = 100 // contexts between samples
)

// memChurn is the number of contexts per churn round: 10,000, or
// GOPCP_BENCH_CHURN's (a multiple of memEvery) for a shorter run.
var memChurn = envInt("GOPCP_BENCH_CHURN", 10000) / memEvery * memEvery

// serverCPU is the user and system CPU a process has used, from
// /proc/PID/stat (-1 once it is gone).
func serverCPU(pid int) time.Duration {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return -1
	}
	// The fields after the command's name, which is in parentheses and
	// may hold spaces: utime and stime are the 12th and 13th of them.
	i := strings.LastIndexByte(string(b), ')')
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return -1
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(u+st) * time.Second / 100 // USER_HZ
}

// perOp is CPU from a to b spread over n operations, or -1.
func perOp(a, b time.Duration, n int) time.Duration {
	if a < 0 || b < 0 || n == 0 {
		return -1
	}
	return (b - a) / time.Duration(n)
}

// measureMem runs the churn on a fresh server: a first context and fetch,
// then the idle baseline 6 s later; rounds of 10,000 contexts (polltimeout 0.5 s,
// 150 a second), sampled every 100 and after each round has expired; then
// 1,000 concurrent fetches on one context. A server that dies is started
// again for the concurrent fetches.
func measureMem(t *testing.T, s memSide, rounds int, hs string, c *http.Client) memRun {
	get := func(url string) int {
		resp, err := c.Get(url)
		if err != nil {
			return 0
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	fetchOn := func(url string) (string, bool) {
		resp, err := c.Get(url + "/pmapi/context?" + hs + "&polltimeout=3600")
		if err != nil {
			return "", false
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		ctxid := strings.TrimPrefix(strings.SplitN(string(b), ",", 2)[0], `{"context":`)
		return ctxid, get(url+"/pmapi/"+ctxid+"/fetch?names=sample.long.one,sample.bin") == 200
	}
	r := memRun{side: s.name, churnCPU: -1, burstCPU: -1}
	srv := s.start()
	defer func() { srv.stop() }()
	if _, ok := fetchOn(srv.url); !ok {
		t.Fatalf("%s: first fetch failed", s.name)
	}
	time.Sleep(6 * time.Second) // settled: past our pmproxy's 5 s return of freed memory
	r.idle = readMem(srv.pid)
	if os.Getenv("GOPCP_BENCH_SMAPS") == "1" {
		t.Logf("%s idle: anonymous KiB by mapping: %v", s.name, anonMaps(srv.pid))
	}
	pace := time.NewTicker(time.Second / memRate)
	cpu0 := serverCPU(srv.pid)
	for round := 0; round < rounds && r.died == ""; round++ {
		var samples []memKiB
		for i := 1; i <= memChurn; i++ {
			<-pace.C
			if get(srv.url+"/pmapi/context?"+hs+"&polltimeout=0.5") != 200 {
				if e := srv.exited(); e != "" {
					r.died = fmt.Sprintf("died (%s) at context %d", e, r.served+1)
					break
				}
			}
			r.served++
			if i%memEvery == 0 {
				samples = append(samples, readMem(srv.pid))
			}
		}
		r.rounds = append(r.rounds, samples)
		if r.died == "" {
			time.Sleep(4 * time.Second) // past the poll timeout and a sweep
			r.expired = append(r.expired, readMem(srv.pid))
		}
	}
	pace.Stop()
	if r.died == "" {
		r.churnCPU = perOp(cpu0, serverCPU(srv.pid), r.served)
	}
	if r.died != "" {
		srv.stop()
		srv = s.start()
	}
	ctxid, _ := fetchOn(srv.url)
	cpu0 = serverCPU(srv.pid)
	r.concFails = parallel(1000, 1000, func(int) bool {
		return get(srv.url+"/pmapi/"+ctxid+"/fetch?names=sample.long.one,sample.bin") == 200
	})
	r.conc = readMem(srv.pid)
	r.burstCPU = perOp(cpu0, serverCPU(srv.pid), 1000)
	time.Sleep(6 * time.Second)
	r.settled = readMem(srv.pid)
	r.hwm = r.settled.hwm
	return r
}

// memTable reports the runs. Figures are KiB of resident memory, "RSS
// (anonymous+file-backed) PSS". Runs are compared at the same points: the
// idle baseline; the peak over the contexts every run of the group
// served (all 10,000 of the first round when every server lived, else up
// to where the first to die died); each round's peak and expired figure
// for flatness across rounds.
func memTable(runs []memRun) string {
	common := memChurn
	for _, r := range runs {
		if len(r.rounds) > 0 && r.died != "" {
			common = min(common, r.served)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "| server | idle | churn peak over contexts 1-%d | peak of each round | after expiry, each round | after 1,000 concurrent fetches | 6 s later | peak (VmHWM) | churn | CPU per context, per burst fetch |\n", common)
	b.WriteString("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
	for _, r := range runs {
		var peaks, exp []string
		for _, s := range r.rounds {
			peaks = append(peaks, peak(s, len(s)).String())
		}
		for _, e := range r.expired {
			exp = append(exp, e.String())
		}
		status := "lived"
		if r.died != "" {
			status = r.died
		}
		first := []memKiB{}
		if len(r.rounds) > 0 {
			first = r.rounds[0]
		}
		fmt.Fprintf(&b, "| %s | %v | %v | %s | %s | %v (%d failed) | %v | %d | %s | %s, %s |\n", r.side, r.idle,
			peak(first, common/memEvery), strings.Join(peaks, ", "), strings.Join(exp, ", "),
			r.conc, r.concFails, r.settled, r.hwm, status, cpuString(r.churnCPU), cpuString(r.burstCPU))
	}
	return b.String()
}

func cpuString(d time.Duration) string {
	if d < 0 {
		return "—"
	}
	return d.Round(time.Microsecond).String()
}

// buildOurPMProxy builds cmd/pmproxy, with cgo or without, and with
// the memtrace tag or without.
func buildOurPMProxy(t *testing.T, cgo, memtrace bool) string {
	return buildPMProxyIn(t, "..", cgo, memtrace)
}

// buildPMProxyIn builds cmd/pmproxy of the checkout in dir (another
// worktree, for a before-and-after run), with cgo or without.
func buildPMProxyIn(t *testing.T, dir string, cgo, memtrace bool) string {
	b := pcptest.Build{Dir: dir}
	if !cgo {
		b.Env = []string{"CGO_ENABLED=0"}
	}
	if memtrace {
		b.Env = append(b.Env, "GOFLAGS=-tags=memtrace")
	}
	return pcptest.GoCommandWith(t, "./cmd/pmproxy", b)
}

// runOurPMProxy starts a built pmproxy on a private port in the bed's
// environment (as proxybed starts PCP's), with its own PCP_TMP_DIR.
func runOurPMProxy(t *testing.T, bin string, bed *testbed.PMCD) running {
	return runOurPMProxyWith(t, bin, bed, nil, nil)
}

// runOurPMProxyWith is runOurPMProxy with more environment and its
// standard error (a goroutine dump, the collector's trace) going to
// stderr.
func runOurPMProxyWith(t *testing.T, bin string, bed *testbed.PMCD, extraEnv []string, stderr io.Writer) running {
	dir := t.TempDir()
	conf := filepath.Join(dir, "pmproxy.conf")
	if err := os.WriteFile(conf, []byte(proxybed.Conf), 0o644); err != nil {
		t.Fatal(err)
	}
	port, release, err := testbed.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-f", "-p", strconv.Itoa(port), "-c", conf, "-l", filepath.Join(dir, "pmproxy.log"), "-s", filepath.Join(dir, "s"))
	var env []string
	for _, kv := range bed.Env() {
		if name, _, _ := strings.Cut(kv, "="); name != "PCP_TMP_DIR" && name != "PCP_RUN_DIR" {
			env = append(env, kv)
		}
	}
	cmd.Env = append(append(env, "PCP_TMP_DIR="+dir, "PCP_RUN_DIR="+dir), extraEnv...)
	cmd.Stderr = stderr
	// Killed with the bench should it die without its cleanups (a go
	// test timeout left one running for an hour).
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := pcptest.StartKept(cmd); err != nil {
		release()
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	stopped := false
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
		release()
	}
	t.Cleanup(stop)
	url := "http://localhost:" + strconv.Itoa(port)
	exited := func() string {
		select {
		case <-done:
			return cmd.ProcessState.String()
		default:
			return ""
		}
	}
	// Ready when the web view answers: it asks nothing of any pmcd.
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if e := exited(); e != "" {
			t.Fatalf("our pmproxy %s", e)
		}
		if resp, err := http.Get(url + "/"); err == nil {
			resp.Body.Close()
			return running{url: url, pid: cmd.Process.Pid, exited: exited, stop: stop}
		}
	}
	t.Fatal("our pmproxy did not answer")
	return running{}
}

// runPCPPMProxy starts PCP's pmproxy; the first time it is found dead,
// how and the end of its log are logged (proxybed.TimerRace).
func runPCPPMProxy(t *testing.T, bed *testbed.PMCD) running {
	p := proxybed.Start(t, bed)
	var told sync.Once
	exited := func() string {
		e := p.Exited()
		if e != "" {
			told.Do(func() { t.Logf("PCP's pmproxy on port %d ended: %s", p.Port, p.Ended()) })
		}
		return e
	}
	return running{url: p.URL(), pid: p.PID(), exited: exited, stop: p.Close}
}
