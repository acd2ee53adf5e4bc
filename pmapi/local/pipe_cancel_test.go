package local

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// fakeCompanion is the companion's end of a pipe, served by the test:
// each DESC_REQ is answered with a descriptor of its PMID, written in
// two halves with the test's say between them.
type fakeCompanion struct {
	c      *companion
	half   chan struct{} // an answer's first half has been written
	halves chan bool     // true: write the answer's second half
	done   chan struct{}
}

func newFakeCompanion(t *testing.T) *fakeCompanion {
	t.Helper()
	inR, inW, outR, outW := companionPipes(t)
	f := &fakeCompanion{
		c:      &companion{in: inW, out: outR, r: pdu.NewReader(pdu.Direct(outR), 0), w: pdu.NewWriter(pdu.Direct(inW)), open: 1},
		half:   make(chan struct{}, 1),
		halves: make(chan bool),
		done:   make(chan struct{}),
	}
	go func() {
		defer close(f.done)
		defer outW.Close()
		defer inR.Close()
		r := pdu.NewReader(inR, 0)
		for {
			b, err := r.ReadPDU(context.Background())
			if err != nil {
				return
			}
			m, err := pdu.Decode(b)
			req, ok := m.(*pdu.DescReq)
			if err != nil || !ok {
				continue // the profile, notices
			}
			answer := (&pdu.Desc{Desc: pcp.Desc{PMID: req.PMID, InDom: pcp.InDomNull}}).Append(nil, 0)
			if _, err := outW.Write(answer[:len(answer)/2]); err != nil {
				return
			}
			f.half <- struct{}{}
			if !<-f.halves {
				return
			}
			if _, err := outW.Write(answer[len(answer)/2:]); err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		f.c.stop()
		close(f.halves)
		<-f.done
	})
	return f
}

// ask asks p for id's descriptor within ctx, with the whole answer
// written.
func (f *fakeCompanion) ask(ctx context.Context, p *pipeAgent, id pcp.PMID) (pdu.Message, error) {
	type answer struct {
		m   pdu.Message
		err error
	}
	got := make(chan answer, 1)
	go func() {
		m, err := p.Handle(ctx, 0, &pdu.DescReq{PMID: id})
		got <- answer{m, err}
	}()
	select {
	case <-f.half:
	case a := <-got:
		return a.m, a.err
	}
	f.halves <- true
	a := <-got
	return a.m, a.err
}

// TestCompanionCancelMidAnswer cancels a request while the companion
// has written half its answer: the request fails with the context's
// error at once, the answer is read and dropped by the next request,
// which gets its own answer, and the agent stays.
func TestCompanionCancelMidAnswer(t *testing.T) {
	f := newFakeCompanion(t)
	p := &pipeAgent{c: f.c, domain: 29}
	p.Profile(&pdu.Profile{})
	ctx, cancel := context.WithCancel(context.Background())
	first := pcp.NewPMID(29, 0, 1)
	failed := make(chan error, 1)
	go func() {
		_, err := p.Handle(ctx, 0, &pdu.DescReq{PMID: first})
		failed <- err
	}()
	<-f.half
	cancel()
	if err := <-failed; !errors.Is(err, context.Canceled) {
		t.Fatalf("the cancelled request: %v, want %v", err, context.Canceled)
	}
	// A request whose context is done while the answer is owed fails
	// with its context's error and leaves the answer owed.
	done, stop := context.WithCancel(context.Background())
	stop()
	if _, err := p.Handle(done, 0, &pdu.DescReq{PMID: first}); !errors.Is(err, context.Canceled) {
		t.Fatalf("a request with its context done: %v, want %v", err, context.Canceled)
	}
	expired, stop2 := context.WithDeadline(context.Background(), time.Unix(1, 0))
	defer stop2()
	if _, err := p.Handle(expired, 0, &pdu.DescReq{PMID: first}); !errors.Is(err, pcp.ErrTimeout) {
		t.Fatalf("a request past its deadline: %v, want %v", err, pcp.ErrTimeout)
	}
	f.halves <- true // the rest of the cancelled request's answer
	second := pcp.NewPMID(29, 0, 2)
	m, err := f.ask(context.Background(), p, second)
	if d, ok := m.(*pdu.Desc); err != nil || !ok || d.Desc.PMID != second {
		t.Fatalf("the next request: %+v, %v; want the descriptor of %v", m, err, second)
	}
	// A cancellable context that is not cancelled.
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	third := pcp.NewPMID(29, 0, 3)
	m, err = f.ask(ctx, p, third)
	if d, ok := m.(*pdu.Desc); err != nil || !ok || d.Desc.PMID != third || f.c.lost {
		t.Fatalf("the request after: %+v, %v (lost %v); want the descriptor of %v", m, err, f.c.lost, third)
	}
}

// TestCompanionCancelAnswerNeverComes: the answer of a cancelled
// request that does not come within the drain bound loses the
// companion, as a failed conversation does; the next requests fail with
// PM_ERR_NOAGENT.
func TestCompanionCancelAnswerNeverComes(t *testing.T) {
	f := newFakeCompanion(t)
	f.c.drainWait = 50 * time.Millisecond
	p := &pipeAgent{c: f.c, domain: 29}
	f.cancelMidAnswer(t, p)
	if _, err := p.Handle(context.Background(), 0, &pdu.DescReq{PMID: pcp.NewPMID(29, 0, 2)}); err != pcp.ErrNoAgent || !f.c.lost {
		t.Fatalf("the next request: %v (lost %v), want %v", err, f.c.lost, pcp.ErrNoAgent)
	}
	if err := p.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
}

// TestCompanionCancelAnswerCameLate: an answer that has come, though
// the next request asks only after the drain bound, is dropped and the
// companion kept, every time (the bound's timer is then ready too).
func TestCompanionCancelAnswerCameLate(t *testing.T) {
	f := newFakeCompanion(t)
	f.c.drainWait = time.Nanosecond
	p := &pipeAgent{c: f.c, domain: 29}
	for i := range 20 {
		f.cancelMidAnswer(t, p)
		f.halves <- true
		for len(f.c.pending) == 0 {
			time.Sleep(time.Millisecond)
		}
		next := pcp.NewPMID(29, 0, 2)
		m, err := f.ask(context.Background(), p, next)
		if d, ok := m.(*pdu.Desc); err != nil || !ok || d.Desc.PMID != next || f.c.lost {
			t.Fatalf("round %d, the next request: %+v, %v (lost %v); want the descriptor of %v", i, m, err, f.c.lost, next)
		}
	}
}

// cancelMidAnswer asks p for a descriptor and cancels the request once
// the companion has written half its answer: the request must fail with
// the context's error.
func (f *fakeCompanion) cancelMidAnswer(t *testing.T, p *pipeAgent) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	failed := make(chan error, 1)
	go func() {
		_, err := p.Handle(ctx, 0, &pdu.DescReq{PMID: pcp.NewPMID(29, 0, 1)})
		failed <- err
	}()
	<-f.half
	cancel()
	if err := <-failed; !errors.Is(err, context.Canceled) {
		t.Fatalf("the cancelled request: %v, want %v", err, context.Canceled)
	}
}
