package pmcd

import (
	"context"
	"errors"
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

// TestInProcWatchdog: the watchdog that times in-process calls times each
// call from its own start, however many calls came before within one
// timeout (calls spread over several timeouts all answer), gives up on a
// call that runs past its timeout with PM_ERR_TIMEOUT, after which every
// call fails at once, and drops the hung call's late answer; a call whose
// caller goes (its context done) is given up on too.
func TestInProcWatchdog(t *testing.T) {
	t.Parallel()
	t.Run("timeout", func(t *testing.T) {
		t.Parallel()
		gate := make(chan struct{})
		var holding bool
		p := gatedAgent(t, gate, func() bool { return holding })
		defer p.close()
		req := &pdu.Fetch{PMIDs: []pcp.PMID{pcp.NewPMID(252, 0, 0)}}
		// Eight quick calls 350 ms apart span more than the timeout:
		// none is timed out from an earlier call's start. (The timeout
		// is long enough for a quick call on a loaded machine.)
		for i := range 8 {
			p.timeout = 2 * time.Second
			reply, err := p.call(context.Background(), 1, req)
			if err != nil {
				t.Fatalf("call %d: %v", i, err)
			}
			if r := reply.(*pdu.Result); len(r.Sets) != 1 || r.Sets[0].NumVal != 1 || r.Sets[0].Values[0].LVal != 7 {
				t.Fatalf("call %d: %+v", i, r.Sets)
			}
			time.Sleep(350 * time.Millisecond)
		}
		holding = true // only the agent's goroutine reads it from here on
		p.timeout = 200 * time.Millisecond
		if _, err := p.call(context.Background(), 1, req); !errors.Is(err, errAgentLost) || !errors.Is(err, pcp.ErrTimeout) {
			t.Fatalf("hung call: %v, want the agent lost with PM_ERR_TIMEOUT", err)
		}
		if _, err := p.call(context.Background(), 1, req); !errors.Is(err, pcp.ErrTimeout) {
			t.Fatalf("call after the hang: %v, want PM_ERR_TIMEOUT at once", err)
		}
		// The hung call ends late: its answer goes nowhere.
		gate <- struct{}{}
	})
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
