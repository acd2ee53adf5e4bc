package seriestest

import (
	"context"
	"os/exec"
	"strconv"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/redistest"
	"github.com/gopcp/gopcp/series/resp"
)

// dbsize is the number of keys in the server at addr.
func dbsize(t *testing.T, addr string) int64 {
	t.Helper()
	p := resp.NewPool(addr, resp.Options{})
	defer p.Close()
	v, err := p.Do(context.Background(), "DBSIZE")
	if err != nil {
		t.Fatal(err)
	}
	return v.Int
}

func TestLoadRetrying(t *testing.T) {
	srv := redistest.Start(t)
	p := resp.NewPool(srv.Addr(), resp.Options{})
	defer p.Close()
	crash := func() ([]byte, error) { return exec.Command("sh", "-c", "kill -SEGV $$").CombinedOutput() }
	var calls int
	loadRetrying(t, srv.Port, "a", func() ([]byte, error) {
		calls++
		// Each attempt writes a key, as a load would part-way; a crashed
		// one's must be gone before the next starts.
		if _, err := p.Do(context.Background(), "SET", "attempt"+strconv.Itoa(calls), "x"); err != nil {
			t.Fatal(err)
		}
		if n := dbsize(t, srv.Addr()); n != 1 {
			t.Errorf("attempt %d starts with %d keys, want the server emptied", calls, n-1)
		}
		if calls < loadAttempts {
			return crash()
		}
		return nil, nil
	})
	if calls != loadAttempts {
		t.Errorf("%d attempts, want %d", calls, loadAttempts)
	}
}

// TestLoadRetryingStops checks that a load failing without a signal is
// not made again (its failure is the test's), and that crashes stop
// being retried after loadAttempts.
func TestLoadRetryingStops(t *testing.T) {
	srv := redistest.Start(t)
	for _, tc := range []struct {
		name  string
		load  func() ([]byte, error)
		calls int
	}{
		{"exit status", func() ([]byte, error) { return exec.Command("sh", "-c", "exit 1").CombinedOutput() }, 1},
		{"crashes every time", func() ([]byte, error) { return exec.Command("sh", "-c", "kill -SEGV $$").CombinedOutput() }, loadAttempts},
	} {
		var calls int
		ft := &fatalT{TB: t}
		func() {
			defer func() { recover() }()
			loadRetrying(ft, srv.Port, tc.name, func() ([]byte, error) { calls++; return tc.load() })
		}()
		if !ft.failed || calls != tc.calls {
			t.Errorf("%s: failed %v after %d attempts, want failed after %d", tc.name, ft.failed, calls, tc.calls)
		}
	}
}

// fatalT records a Fatalf instead of ending the test, so that a failure
// loadRetrying must report can be checked.
type fatalT struct {
	testing.TB
	failed bool
}

func (f *fatalT) Fatalf(string, ...any) { f.failed = true; panic(f) }
func (f *fatalT) Logf(string, ...any)   {}
func (f *fatalT) Helper()               {}

func TestFlushAllCluster(t *testing.T) {
	cl := redistest.StartCluster(t, 3)
	c := resp.NewCluster(cl.Addrs(), resp.Options{})
	defer c.Close()
	ctx := context.Background()
	for i := range 30 {
		if _, err := c.Do(ctx, "SET", "k"+strconv.Itoa(i), "v"); err != nil {
			t.Fatal(err)
		}
	}
	var before int64
	for _, a := range cl.Addrs() {
		before += dbsize(t, a)
	}
	if before != 30 {
		t.Fatalf("%d keys in the cluster, want 30", before)
	}
	port := cl.Nodes[0].Port
	if err := flushAll(port); err != nil {
		t.Fatal(err)
	}
	for _, a := range cl.Addrs() {
		if n := dbsize(t, a); n != 0 {
			t.Errorf("%s holds %d keys after flushAll", a, n)
		}
	}
}
