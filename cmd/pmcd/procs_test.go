package main

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// TestProcsFromEnv: without GOMAXPROCS in the environment pmcd goes down
// to one P and lets the server raise it to the CPUs, within the current
// limit; with it, GOMAXPROCS is left alone and the server does not
// change it.
func TestProcsFromEnv(t *testing.T) {
	for _, c := range []struct {
		env     string
		set     []int
		max     int
		limited bool
	}{
		{"", []int{1}, 6, true},
		{"4", nil, 0, false},
	} {
		var set []int
		got := procsFromEnv(func(name string) string {
			if name == "GOMAXPROCS" {
				return c.env
			}
			return ""
		}, func(n int) int { set = append(set, n); return 6 }, 6)
		if !slices.Equal(set, c.set) || got.max != c.max || (got.limit != nil) != c.limited || (got.sched != nil) != c.limited {
			t.Errorf("GOMAXPROCS=%q: set %v, MaxProcs %d, ProcsLimit set %v, ProcsSched set %v; want %v, %d, %v",
				c.env, set, got.max, got.limit != nil, got.sched != nil, c.set, c.max, c.limited)
		}
	}
}

// TestRunPassesProcs runs pmcd with procs set and eight clients fetching
// at once until the server reads the limit and the threads' counts,
// which it does only with MaxProcs above 1 and enough clients busy for
// two Ps: run hands all three to the server.
func TestRunPassesProcs(t *testing.T) {
	testbed.Need(t)
	read, sampled := make(chan struct{}), make(chan struct{})
	var once, sampledOnce sync.Once
	procs = procsConf{max: 2, limit: func() int {
		once.Do(func() { close(read) })
		return 2
	}, sched: func() (time.Duration, time.Duration, bool) {
		sampledOnce.Do(func() { close(sampled) })
		return 0, 0, false
	}}
	// Registered before startTrivial's cleanup, so it runs after run ends.
	t.Cleanup(func() { procs = procsConf{} })
	host := startTrivial(t)
	ctx := context.Background()
	// Generous: the clients stop as soon as the limit is read.
	fctx, stop := context.WithTimeout(ctx, 2*time.Minute)
	defer stop()
	var wg sync.WaitGroup
	for range 8 {
		cx, err := pmapi.NewHostContext(ctx, host)
		if err != nil {
			t.Fatal(err)
		}
		defer cx.Close()
		ids, err := cx.LookupNames(ctx, []string{"trivial.time"})
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			var r pcp.Result
			for {
				select {
				case <-sampled:
					return
				case <-fctx.Done():
					return
				default:
				}
				if _, err := cx.Fetch(ctx, ids, &r); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	for name, ch := range map[string]chan struct{}{"ProcsLimit": read, "ProcsSched": sampled} {
		select {
		case <-ch:
		default:
			t.Fatalf("eight clients fetching for two minutes: the server never read %s", name)
		}
	}
}
