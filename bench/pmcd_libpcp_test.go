package bench

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
)

// pmcdClients are who fetch in TestPMCDAgentsSideBySide's and
// TestPMCDAgentsLoad's loads: the bench's own goroutines, each with a
// pmapi context (the default), or, with GOPCP_BENCH_CLIENT=libpcp, one
// process a client running testdata/fetchloop.c, a single-threaded
// program on PCP's libpcp. The goroutines are 32 clients of one Go
// process on the machine's Ps, whose threads wait behind each other for
// a CPU; the processes are what PCP's own clients are, each scheduled on
// its own, so that their latencies are the daemon's and the kernel's
// alone.
type pmcdClients struct {
	// fetchloop is the built program, "" for the Go clients.
	fetchloop string
}

// newPMCDClients reads GOPCP_BENCH_CLIENT ("go" or "libpcp") and builds
// fetchloop for libpcp, skipping t without a C compiler or libpcp's
// headers.
func newPMCDClients(t *testing.T) pmcdClients {
	switch v := os.Getenv("GOPCP_BENCH_CLIENT"); v {
	case "", "go":
		return pmcdClients{}
	case "libpcp":
		bin := filepath.Join(t.TempDir(), "fetchloop")
		pcptest.Compile(t, pcptest.C{Src: "testdata/fetchloop.c", Out: bin, CFlags: []string{"-O2"}})
		return pmcdClients{fetchloop: bin}
	default:
		t.Fatalf("GOPCP_BENCH_CLIENT=%q: want go or libpcp", v)
		return pmcdClients{}
	}
}

// String names the clients for the logs.
func (c pmcdClients) String() string {
	if c.fetchloop != "" {
		return "libpcp client processes"
	}
	return "the bench's Go clients"
}

// loadTree has n clients fetch from bed for d, ids by the Go clients,
// names by libpcp's (which look them up), with the CPU of pmcd and its
// agents counted.
func (c pmcdClients) loadTree(t testing.TB, bed *testbed.PMCD, ids []pcp.PMID, names []string, n int, d time.Duration) pmcdRun {
	if c.fetchloop == "" {
		return loadTree(t, bed, ids, n, d)
	}
	return loadLibpcp(t, c.fetchloop, bed, names, n, d, func() time.Duration { return treeCPU(t, bed.PID()) })
}

// fetchloopClient is one running fetchloop process.
type fetchloopClient struct {
	cmd    *exec.Cmd
	out    *bufio.Reader
	stderr strings.Builder
	rep    fetchloopReport
	err    error
}

// loadLibpcp is loadPMCDCPU with n fetchloop processes as the clients.
// They start together when their standard input ends, and each stays,
// idle, after its report until descriptor 3 ends, so that the counts of
// the daemon and of the clients are read over the load alone.
func loadLibpcp(t testing.TB, bin string, bed *testbed.PMCD, names []string, n int, d time.Duration, cpuOf func() time.Duration) pmcdRun {
	dir := t.TempDir()
	counter := filepath.Join(dir, "answered")
	if err := os.WriteFile(counter, make([]byte, 8), 0o644); err != nil {
		t.Fatal(err)
	}
	goR, goW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	exitR, exitW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	clients := make([]*fetchloopClient, n)
	var pids []int
	// Closing the write ends lets the clients go once their reports are
	// read; after a failure they are killed instead, as a report nobody
	// reads could block them.
	reported := false
	defer func() {
		goW.Close()
		exitW.Close()
		for _, c := range clients {
			if c == nil {
				continue
			}
			if !reported {
				_ = c.cmd.Process.Kill()
			}
			_ = c.cmd.Wait()
		}
	}()
	args := append([]string{bed.Host(), strconv.FormatFloat(d.Seconds(), 'f', -1, 64), counter}, names...)
	for i := range clients {
		c := &fetchloopClient{cmd: exec.Command(bin, args...)}
		c.cmd.Stdin = goR
		c.cmd.ExtraFiles = []*os.File{exitR}
		c.cmd.Stderr = &c.stderr
		out, err := c.cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		c.out = bufio.NewReader(out)
		if err := c.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		clients[i] = c
		pids = append(pids, c.cmd.Process.Pid)
	}
	goR.Close()
	exitR.Close()
	for _, c := range clients {
		if l, err := c.out.ReadString('\n'); l != "ready\n" {
			t.Fatalf("fetchloop did not start: %q %v: %s", l, err, c.stderr.String())
		}
	}
	run := measureLoad(t, bed, cpuOf, pids, func() clientsLoad {
		var wg sync.WaitGroup
		t0 := time.Now()
		goW.Close()
		for _, c := range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c.rep, c.err = readFetchloop(c.out)
			}()
		}
		wg.Wait()
		load := clientsLoad{took: time.Since(t0)}
		for _, c := range clients {
			if c.err != nil && load.err == nil {
				load.err = fmt.Errorf("fetchloop %d: %v: %s", c.cmd.Process.Pid, c.err, c.stderr.String())
			}
			load.lats = append(load.lats, c.rep.lats)
			load.others = append(load.others, c.rep.others)
			load.usage.cpu += c.rep.usage.cpu
			load.usage.nvcsw += c.rep.usage.nvcsw
			load.usage.nivcsw += c.rep.usage.nivcsw
		}
		return load
	})
	reported = true
	return run
}

// fetchloopReport is what one fetchloop process reports after its load.
type fetchloopReport struct {
	lats   []time.Duration
	others []int32
	usage  clientUsage
}

// maxFetchloopFetches bounds the round trips read from one report, as
// fetchloop.c bounds those it keeps.
const maxFetchloopFetches = 5_000_000

// readFetchloop reads a fetchloop report up to its "end" line.
func readFetchloop(r *bufio.Reader) (fetchloopReport, error) {
	var rep fetchloopReport
	line := func() ([]string, error) {
		l, err := r.ReadString('\n')
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
		return strings.Fields(l), nil
	}
	ints := func(f []string, want int) ([]int64, error) {
		if len(f) != want {
			return nil, fmt.Errorf("report line %q: want %d words", strings.Join(f, " "), want)
		}
		v := make([]int64, len(f))
		for i, s := range f {
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("report line %q: %q is not a count", strings.Join(f, " "), s)
			}
			v[i] = n
		}
		return v, nil
	}
	f, err := line()
	if err != nil {
		return rep, err
	}
	if len(f) != 2 || f[0] != "fetches" {
		return rep, fmt.Errorf("report starts %q, not fetches", strings.Join(f, " "))
	}
	n, err := ints(f[1:], 1)
	if err != nil {
		return rep, err
	}
	if n[0] > maxFetchloopFetches {
		return rep, fmt.Errorf("report of %d fetches, more than %d", n[0], maxFetchloopFetches)
	}
	if f, err = line(); err != nil {
		return rep, err
	}
	if len(f) != 5 || f[0] != "rusage" {
		return rep, fmt.Errorf("report line %q, not rusage", strings.Join(f, " "))
	}
	u, err := ints(f[1:], 4)
	if err != nil {
		return rep, err
	}
	rep.usage = clientUsage{cpu: time.Duration(u[0]+u[1]) * time.Microsecond, nvcsw: u[2], nivcsw: u[3]}
	rep.lats = make([]time.Duration, 0, n[0])
	rep.others = make([]int32, 0, n[0])
	for range n[0] {
		if f, err = line(); err != nil {
			return rep, err
		}
		v, err := ints(f, 2)
		if err != nil {
			return rep, err
		}
		rep.lats = append(rep.lats, time.Duration(v[0]))
		rep.others = append(rep.others, int32(min(v[1], 1<<31-1)))
	}
	if f, err = line(); err != nil {
		return rep, err
	}
	if len(f) != 1 || f[0] != "end" {
		return rep, fmt.Errorf("report line %q after the fetches, not end", strings.Join(f, " "))
	}
	return rep, nil
}

// FuzzReadFetchloop feeds readFetchloop reports, whole and broken: it
// returns an error or a report of as many round trips as it said.
func FuzzReadFetchloop(f *testing.F) {
	f.Add("fetches 2\nrusage 10 20 3 4\n1500 31\n2500 62\nend\n")
	f.Add("fetches 1\nrusage 1 2 3\n")
	f.Add("fetches 9999999999\n")
	f.Fuzz(func(t *testing.T, in string) {
		rep, err := readFetchloop(bufio.NewReader(strings.NewReader(in)))
		if err == nil && len(rep.lats) != len(rep.others) {
			t.Fatalf("%d latencies, %d counts of others", len(rep.lats), len(rep.others))
		}
	})
}

func TestReadFetchloop(t *testing.T) {
	rep, err := readFetchloop(bufio.NewReader(strings.NewReader("fetches 2\nrusage 10 20 3 4\n1500 31\n2500 62\nend\n")))
	if err != nil {
		t.Fatal(err)
	}
	want := fetchloopReport{lats: []time.Duration{1500, 2500}, others: []int32{31, 62},
		usage: clientUsage{cpu: 30 * time.Microsecond, nvcsw: 3, nivcsw: 4}}
	if fmt.Sprint(rep) != fmt.Sprint(want) {
		t.Fatalf("got %+v, want %+v", rep, want)
	}
	for _, bad := range []string{"", "fetches 1\n", "fetches x\n", "fetches 1\nrusage 1 2 3 4\n5 6\n", "fetches 0\nrusage 1 2 3 4\nend 1\n",
		"fetches 1\nrusage 1 2 3 4\n-5 6\nend\n", "fetches 6000000\nrusage 1 2 3 4\n"} {
		if _, err := readFetchloop(bufio.NewReader(strings.NewReader(bad))); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
