package pmcd

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	_ "github.com/gopcp/gopcp/agents/all" // trace_init
	atrace "github.com/gopcp/gopcp/agents/trace"
	"github.com/gopcp/gopcp/internal/testing/goroutines"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmda"
	"github.com/gopcp/gopcp/trace"
)

// goroutinesIn counts the goroutines with a frame of a function whose
// name has prefix.
func goroutinesIn(prefix string) int { return len(goroutines.In(prefix)) }

// traceGoroutines counts the goroutines running the trace agent's code.
func traceGoroutines() int { return len(goroutines.Left("github.com/gopcp/gopcp/agents/trace.")) }

// traceListeners counts the trace agents accepting programs: each runs
// one Serve. (The goroutine serving a program that has gone ends in its
// own time, so the whole count is only known once the agent is closed.)
func traceListeners() int {
	return goroutinesIn("github.com/gopcp/gopcp/agents/trace.(*Agent).Serve(")
}

// lifecycleConf writes pmcd.conf: pmcd's own agent, and the in-process
// trace agent (domain 10) when trace is not "", its line's path trace.
// Each version has a modification time of its own, an hour after the
// last, so that Rescan sees every change whatever the clock's grain.
type lifecycleConf struct {
	path string
	mark time.Time
}

func (c *lifecycleConf) write(t *testing.T, tracePath string) {
	t.Helper()
	text := "pmcd\t2\tdso\tpmcd_init\t/nonexistent/pmda_pmcd.so\n"
	if tracePath != "" {
		text += "trace\t10\tdso\ttrace_init\t" + tracePath + "\n"
	}
	if err := os.WriteFile(c.path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	c.mark = c.mark.Add(time.Hour)
	if err := os.Chtimes(c.path, c.mark, c.mark); err != nil {
		t.Fatal(err)
	}
}

// fetchAfterChanges sends a FETCH and returns the state-change bits pmcd
// sent before its RESULT (0 for none) and the RESULT.
func fetchAfterChanges(t *testing.T, r *pdu.Reader, w *pdu.Writer, pmids ...pcp.PMID) (int32, *pdu.Result) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := w.WriteMessage(ctx, &pdu.Fetch{Context: 0, PMIDs: pmids}, 1); err != nil {
		t.Fatal(err)
	}
	var changes int32
	for {
		m := readMessage(t, ctx, r)
		switch m := m.(type) {
		case *pdu.Error:
			if m.Code <= 0 || changes != 0 {
				t.Fatalf("fetch: error %d after changes %d", m.Code, changes)
			}
			changes = m.Code
		case *pdu.Result:
			return changes, m
		default:
			t.Fatalf("fetch: %T", m)
		}
	}
}

// freeTracePort is a TCP port nothing listens on now, for the in-process
// trace agent (never PCP's 4323, which a real pmdatrace may want). It is
// one of testbed's private ports, held until the test ends: a port the
// kernel handed out for ":0" and closed again lies in the ephemeral range,
// where any connection made on the machine may take it before the agent
// binds it (a CI run failed so, "bind: address already in use").
func freeTracePort(t *testing.T) int {
	t.Helper()
	port, release, err := testbed.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	return port
}

// refused says whether nothing accepts connections on port.
func refused(port int) bool {
	c, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err == nil {
		c.Close()
		return false
	}
	return errors.Is(err, syscall.ECONNREFUSED)
}

// TestInProcAgentEndsOnRescan drops the in-process trace agent from
// pmcd.conf, adds it back and replaces it (its line changed), rescanning
// as SIGHUP does, several times over: each agent dropped or replaced has
// closed its port and left no goroutine behind, and each new one takes
// the same port and counts a program's points from zero; clients are
// told of each drop and addition. pmcd's Close ends the last one.
func TestInProcAgentEndsOnRescan(t *testing.T) {
	port := freeTracePort(t)
	t.Setenv(trace.EnvPort, strconv.Itoa(port))
	if n := traceGoroutines(); n != 0 {
		t.Fatalf("%d trace agent goroutines before the test", n)
	}
	ta, err := atrace.New(10, atrace.Options{Port: port})
	if err != nil {
		t.Fatal(err)
	}
	pointCount, err := ta.PMDA().LookupName(context.Background(), 0, "trace.point.count")
	if err != nil {
		t.Fatal(err)
	}

	conf := &lifecycleConf{path: filepath.Join(t.TempDir(), "pmcd.conf"), mark: time.Now().Add(-48 * time.Hour)}
	conf.write(t, "/nonexistent/pmda_trace.so")
	c, err := LoadConf(conf.path)
	if err != nil {
		t.Fatal(err)
	}
	files := &Files{ConfPath: conf.path}
	files.Remember()
	srv := &Server{PMNS: testTree(t), Conf: c}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, l) }()
	stopped := false
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
		srv.Close()
	}
	t.Cleanup(stop)
	_, r, w := dial(t, "localhost:"+strconv.Itoa(l.Addr().(*net.TCPAddr).Port))

	// serves has a program send one point to the agent on port, waiting
	// for its acknowledgement, and checks that pmcd then reports one.
	// serves also checks the notices pmcd gave with the fetch: want.
	serves := func(step string, want int32) {
		t.Helper()
		tc, err := trace.New(trace.Options{Host: "127.0.0.1", Port: port, Reconnect: []time.Duration{time.Hour}})
		if err != nil {
			t.Fatal(err)
		}
		defer tc.Close()
		pctx, pcancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer pcancel()
		if err := tc.Point(pctx, "p"); err != nil {
			t.Fatalf("%s: a program's point: %v", step, err)
		}
		changes, res := fetchAfterChanges(t, r, w, pointCount)
		if changes != want {
			t.Errorf("%s: notices %#x, want %#x", step, changes, want)
		}
		s := res.Sets[0]
		var got pcp.Atom
		if s.NumVal == 1 {
			got, err = pcp.ExtractValue(s.ValFmt, &s.Values[0], pcp.TypeU64, pcp.TypeU64)
		}
		if s.NumVal != 1 || err != nil || got.ULL != 1 {
			t.Fatalf("%s: trace.point.count after one point: %+v", step, s)
		}
	}
	gone := func(step string) {
		t.Helper()
		if n := traceGoroutines(); n != 0 {
			t.Errorf("%s: %d trace agent goroutines left", step, n)
		}
		if !refused(port) {
			t.Errorf("%s: port %d still accepts", step, port)
		}
	}

	serves("started", 0)
	if n := traceListeners(); n != 1 {
		t.Fatalf("%d trace agents listening", n)
	}
	for i := range 3 {
		conf.write(t, "")
		srv.Rescan(context.Background(), files)
		gone("dropped " + strconv.Itoa(i))
		changes, res := fetchAfterChanges(t, r, w, pointCount)
		if res.Sets[0].NumVal != int32(pcp.ErrNoAgent) {
			t.Errorf("dropped %d: fetch: %+v", i, res.Sets[0])
		}
		// (A host with labels configured adds PMCD_LABEL_CHANGE at the
		// first rescan, pmcd's first look at them.)
		if changes&^int32(changeLabels) != int32(changeDropAgent) {
			t.Errorf("dropped %d: notices %#x, want PMCD_DROP_AGENT", i, changes)
		}

		conf.write(t, "/nonexistent/pmda_trace.so")
		srv.Rescan(context.Background(), files)
		serves("added again "+strconv.Itoa(i), int32(changeAddAgent))
		if n := traceListeners(); n != 1 {
			t.Errorf("added again %d: %d trace agents listening", i, n)
		}

		// A changed line replaces the running agent: the new one binds
		// the port the old one had.
		conf.write(t, "/nonexistent/other/pmda_trace.so"+strings.Repeat("/.", i))
		srv.Rescan(context.Background(), files)
		serves("replaced "+strconv.Itoa(i), int32(changeDropAgent|changeAddAgent))
		if n := traceListeners(); n != 1 {
			t.Errorf("replaced %d: %d trace agents listening", i, n)
		}
	}
	stop()
	gone("pmcd closed")
}

// TestPanickedInProcAgentClosedBeforeRestart: an in-process agent that
// panics is marked dead and closed, and the agent started again in its
// place is built only once the old one's Close has finished (so a port
// it held is free); clients are told of the drop, then of the restart.
func TestPanickedInProcAgentClosedBeforeRestart(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var events []string
	note := func(e string) {
		mu.Lock()
		events = append(events, e)
		mu.Unlock()
	}
	built := 0
	RegisterDSO("lifecycle_panics_init", func(domain uint32) (*pmda.Agent, error) {
		mu.Lock()
		built++
		n := built
		mu.Unlock()
		note(fmt.Sprint("new ", n))
		a, err := pmda.New(pmda.Config{
			Name:   "pmdalifecycle",
			Domain: domain,
			Metrics: []pmda.Metric{{Desc: pcp.Desc{PMID: pcp.NewPMID(domain, 0, 0), Type: pcp.Type32,
				InDom: pcp.InDomNull, Sem: pcp.SemInstant}}},
			Fetcher: pmda.FetchFunc(func(context.Context, *pmda.Metric, int32) (pcp.Atom, error) {
				if n == 1 {
					panic("the first agent panics")
				}
				return pcp.Atom{L: int32(n)}, nil
			}),
		})
		if a != nil {
			a.OnClose(func() error { note(fmt.Sprint("close ", n)); return nil })
		}
		return a, err
	})
	c, err := ParseConf(strings.NewReader("lifecycle 252 dso lifecycle_panics_init /nonexistent/lifecycle.so\n"), "test")
	if err != nil {
		t.Fatal(err)
	}
	srv := &Server{PMNS: testTree(t), Conf: c, AutoRestart: true}
	_, r, w := dial(t, serveOn(t, srv))
	id := pcp.NewPMID(252, 0, 0)
	changes, res := fetchAfterChanges(t, r, w, id)
	if res.Sets[0].NumVal != int32(pcp.ErrIPC) || changes != int32(changeDropAgent) {
		t.Errorf("the fetch that panicked: %+v, notices %#x", res.Sets[0], changes)
	}
	// (A host with labels configured adds PMCD_LABEL_CHANGE: a restart
	// is the first look at them.)
	changes, res = fetchAfterChanges(t, r, w, id)
	if res.Sets[0].NumVal != 1 || res.Sets[0].Values[0].LVal != 2 || changes&^int32(changeLabels) != int32(changeAddAgent|changeRestartAgent) {
		t.Errorf("the fetch after the restart: %+v, notices %#x", res.Sets[0], changes)
	}
	mu.Lock()
	got := strings.Join(events, ", ")
	mu.Unlock()
	if got != "new 1, close 1, new 2" {
		t.Errorf("agents built and closed: %s", got)
	}
}
