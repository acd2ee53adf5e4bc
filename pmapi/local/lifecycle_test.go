package local_test

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "github.com/gopcp/gopcp/agents/all" // trace_init, mmv_init
	"github.com/gopcp/gopcp/internal/testing/goroutines"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	gommv "github.com/gopcp/gopcp/mmv"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi/local"
	"github.com/gopcp/gopcp/pmns"
	"github.com/gopcp/gopcp/trace"
)

// agentGoroutines counts the goroutines with a frame in the code of the
// agents' packages.
func agentGoroutines() int {
	return len(goroutines.Left("github.com/gopcp/gopcp/agents/trace.", "github.com/gopcp/gopcp/agents/mmv."))
}

// openFiles counts this process's open file descriptors.
func openFiles(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("no /proc/self/fd: %v", err)
	}
	return len(ents)
}

// mappings counts the mappings of path in this process.
func mappings(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Skipf("no /proc/self/maps: %v", err)
	}
	return strings.Count(string(b), path+"\n")
}

// TestContextsLeaveNothing makes and closes local contexts running the
// trace agent (listening for programs) and the MMV agent (mapping a
// program's file) in a loop: while a context is open its trace agent
// takes a program's point on the same port each time and its MMV agent
// maps the file; once it is closed no goroutine of either agent is left,
// the port is free, the file is no longer mapped, and the process has
// no more descriptors than after the first context.
func TestContextsLeaveNothing(t *testing.T) {
	// The trace agent binds this port in every context: a private port
	// held to the test's end, not a ":0" port closed again, which any
	// connection on the machine may take before the agent binds it.
	port, release, err := testbed.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	tmp := t.TempDir()
	t.Setenv(trace.EnvPort, strconv.Itoa(port))
	t.Setenv("PCP_TMP_DIR", tmp)
	if err := os.Mkdir(filepath.Join(tmp, "mmv"), 0o755); err != nil {
		t.Fatal(err)
	}
	reg, err := gommv.New("app", gommv.Options{Dir: filepath.Join(tmp, "mmv")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Counter("requests", gommv.MetricOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := reg.Start(); err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	if n := agentGoroutines(); n != 0 {
		t.Fatalf("%d agent goroutines before the test", n)
	}
	writers := mappings(t, reg.Path()) // the registry's own

	table := local.NewTable()
	table.Clear()
	for _, e := range []struct {
		domain int
		entry  string
	}{{10, "trace_init"}, {70, "mmv_init"}} {
		if err := table.Add(e.domain, "/nonexistent/"+e.entry+".so", e.entry); err != nil {
			t.Fatal(err)
		}
	}
	mmvFiles := pcp.NewPMID(70, 0, 2)
	pointCount := pcp.NewPMID(10, 0, 6)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	fds := -1
	for i := range 5 {
		step := "context " + strconv.Itoa(i)
		c, err := local.NewContext(ctx, local.WithTable(table), local.WithNamespace(pmns.New()))
		if err != nil {
			t.Fatal(err)
		}
		tc, err := trace.New(trace.Options{Host: "127.0.0.1", Port: port, Reconnect: []time.Duration{time.Hour}})
		if err != nil {
			t.Fatal(err)
		}
		if err := tc.Point(ctx, "p"); err != nil {
			t.Fatalf("%s: a program's point: %v", step, err)
		}
		tc.Close()
		var r pcp.Result
		if _, err := c.Fetch(ctx, []pcp.PMID{mmvFiles, pointCount}, &r); err != nil {
			t.Fatalf("%s: fetch: %v", step, err)
		}
		if s := r.Sets[0]; s.NumVal != 1 || s.Values[0].LVal != 1 {
			t.Errorf("%s: mmv.control.files: %+v", step, s)
		}
		if s := r.Sets[1]; s.NumVal != 1 {
			t.Errorf("%s: trace.point.count: %+v", step, s)
		} else if a, err := pcp.ExtractValue(s.ValFmt, &s.Values[0], pcp.TypeU64, pcp.TypeU64); err != nil || a.ULL != 1 {
			t.Errorf("%s: trace.point.count: %v %v", step, a.ULL, err)
		}
		if n := mappings(t, reg.Path()); n != writers+1 {
			t.Errorf("%s: the MMV file is mapped %d times while the context is open, by the writer %d", step, n, writers)
		}
		if err := c.Close(); err != nil {
			t.Errorf("%s: Close: %v", step, err)
		}
		if n := agentGoroutines(); n != 0 {
			t.Errorf("%s: %d agent goroutines left after Close", step, n)
		}
		if n := mappings(t, reg.Path()); n != writers {
			t.Errorf("%s: the MMV file is mapped %d times after Close, by the writer %d", step, n, writers)
		}
		if conn, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(port)); err == nil {
			conn.Close()
			t.Errorf("%s: the trace port still accepts after Close", step)
		} else if !errors.Is(err, syscall.ECONNREFUSED) {
			t.Errorf("%s: dialling the closed trace port: %v", step, err)
		}
		// Fewer is no leak: descriptors of earlier tests may be closed
		// by the collector meanwhile.
		if n := openFiles(t); fds < 0 {
			fds = n
		} else if n > fds {
			t.Errorf("%s: %d open descriptors after Close, %d after the first", step, n, fds)
		}
	}
}
