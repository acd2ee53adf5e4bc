package pmcd

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmda"
)

// gatedAgent is an in-process agent of one metric whose fetches wait for
// a value on gate while hold is set, and answer at once otherwise.
func gatedAgent(t *testing.T, gate chan struct{}, hold func() bool) *inProc {
	t.Helper()
	a, err := pmda.New(pmda.Config{
		Name:   "gated",
		Domain: 252,
		Metrics: []pmda.Metric{{Desc: pcp.Desc{PMID: pcp.NewPMID(252, 0, 0), Type: pcp.Type32,
			InDom: pcp.InDomNull, Sem: pcp.SemInstant}}},
		Fetcher: pmda.FetchFunc(func(context.Context, *pmda.Metric, int32) (pcp.Atom, error) {
			if hold() {
				<-gate
			}
			return pcp.Atom{L: 7}, nil
		}),
	})
	if err != nil {
		t.Fatal(err)
	}
	return &inProc{a: a, into: new(pdu.Result)}
}

// fakeWatch is a clock and a watchdog timer for an inProc that tests
// move by hand: advance moves the clock and runs the watchdog's rounds
// that fall due, as the runtime's timer would, so that what the watchdog
// decides is decided by the clock alone.
type fakeWatch struct {
	p   *inProc
	mu  sync.Mutex
	now time.Duration
	set bool
	at  time.Duration   // when the timer fires, while set
	ds  []time.Duration // each Reset's duration
}

func newFakeWatch(p *inProc) *fakeWatch {
	w := &fakeWatch{p: p}
	p.watchdog = w
	p.clock = func() time.Duration {
		w.mu.Lock()
		defer w.mu.Unlock()
		return w.now
	}
	return w
}

func (w *fakeWatch) Reset(d time.Duration) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	was := w.set
	w.set, w.at = true, w.now+d
	w.ds = append(w.ds, d)
	return was
}

func (w *fakeWatch) Stop() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	was := w.set
	w.set = false
	return was
}

// advance moves the clock to to, running each round of the watchdog
// that falls due on the way.
func (w *fakeWatch) advance(to time.Duration) {
	for {
		w.mu.Lock()
		fire := w.set && w.at <= to
		if fire {
			w.now, w.set = w.at, false
		} else {
			w.now = to
		}
		w.mu.Unlock()
		if !fire {
			return
		}
		w.p.watch()
	}
}

// resets is a copy of the durations the timer was reset to.
func (w *fakeWatch) resets() []time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.ds)
}

// TestInProcWatchdog: the watchdog that times in-process calls times each
// call from its own start, however many calls came before within one
// timeout (calls spread over several timeouts all answer), gives up on a
// call that runs past its timeout with PM_ERR_TIMEOUT, after which every
// call fails at once, and drops the hung call's late answer; a call whose
// timeout is shorter than the one the watchdog is set for (the timeout
// was lowered) is given up on at its own timeout, not the earlier call's;
// a call whose caller goes (its context done) is given up on too. The
// clock and the timer are the test's (fakeWatch): no decision depends on
// how fast the machine is.
func TestInProcWatchdog(t *testing.T) {
	t.Parallel()
	req := &pdu.Fetch{PMIDs: []pcp.PMID{pcp.NewPMID(252, 0, 0)}}
	quick := func(t *testing.T, p *inProc, i int) {
		t.Helper()
		reply, err := p.call(context.Background(), 1, req)
		if err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		if r := reply.(*pdu.Result); len(r.Sets) != 1 || r.Sets[0].NumVal != 1 || r.Sets[0].Values[0].LVal != 7 {
			t.Fatalf("call %d: %+v", i, r.Sets)
		}
	}
	for _, tc := range []struct {
		name string
		// quick calls of timeout every 350 ms before the hung one.
		quick, timeout time.Duration
		n              int
		hung           time.Duration // the hung call's timeout
	}{
		// Eight calls 350 ms apart span more than the timeout: none
		// is timed out from an earlier call's start.
		{name: "calls span timeouts", n: 8, quick: 2 * time.Second, hung: 200 * time.Millisecond},
		// The timeout raised, then lowered: the hung call is given up
		// on at its own 200 ms, not the watchdog's 10 s round.
		{name: "timeout lowered", n: 1, quick: 10 * time.Second, hung: 200 * time.Millisecond},
		{name: "same timeout", n: 3, quick: time.Second, hung: time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			gate, entered := make(chan struct{}), make(chan struct{})
			var holding bool
			p := gatedAgent(t, gate, func() bool {
				if holding {
					entered <- struct{}{}
				}
				return holding
			})
			w := newFakeWatch(p)
			defer p.close()
			at := time.Duration(0)
			for i := range tc.n {
				p.timeout = tc.quick
				quick(t, p, i)
				at += 350 * time.Millisecond
				w.advance(at)
			}
			holding = true // only the agent's goroutine reads it from here on
			p.timeout = tc.hung
			done := make(chan error, 1)
			go func() {
				_, err := p.call(context.Background(), 1, req)
				done <- err
			}()
			<-entered // the call has set the watchdog and runs
			w.advance(at + tc.hung - 1)
			if st := p.state.Load() & stateMask; st != callRunning {
				t.Fatalf("hung call's state %d before its timeout, want running (%d)", st, callRunning)
			}
			w.advance(at + tc.hung)
			if st := p.state.Load() & stateMask; st != callTimedOut {
				t.Fatalf("hung call's state %d at its timeout, want timed out (%d); timer resets %v",
					st, callTimedOut, w.resets())
			}
			if err := <-done; !errors.Is(err, errAgentLost) || !errors.Is(err, pcp.ErrTimeout) {
				t.Fatalf("hung call: %v, want the agent lost with PM_ERR_TIMEOUT", err)
			}
			if _, err := p.call(context.Background(), 1, req); !errors.Is(err, pcp.ErrTimeout) {
				t.Fatalf("call after the hang: %v, want PM_ERR_TIMEOUT at once", err)
			}
			// The hung call ends late: its answer goes nowhere.
			gate <- struct{}{}
		})
	}
	t.Run("caller goes", func(t *testing.T) {
		t.Parallel()
		gate := make(chan struct{})
		p := gatedAgent(t, gate, func() bool { return true })
		defer p.close()
		req := &pdu.Fetch{PMIDs: []pcp.PMID{pcp.NewPMID(252, 0, 0)}}
		ctx, cancel := context.WithCancel(context.Background())
		p.timeout = time.Hour
		done := make(chan error, 1)
		go func() {
			_, err := p.call(ctx, 1, req)
			done <- err
		}()
		cancel()
		if err := <-done; !errors.Is(err, errAgentLost) || !errors.Is(err, context.Canceled) {
			t.Fatalf("call whose caller went: %v", err)
		}
		close(gate)
	})
}
