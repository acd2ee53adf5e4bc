package pmda

import (
	"context"
	"errors"
	"testing"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// ending is a SetFetcher and FetchEnder that counts Refresh and FetchEnd
// calls and fails or panics as told.
type ending struct {
	refreshErr  error
	setErr      error
	panics      bool
	refreshes   int
	ends        int
	endsAtStart int // FetchEnd calls seen by the first FetchSet of a request
}

func (e *ending) Fetch(context.Context, *Metric, int32) (pcp.Atom, error) {
	return pcp.Atom{}, pcp.ErrPMID
}

func (e *ending) Refresh(context.Context, []pcp.PMID) error {
	e.refreshes++
	return e.refreshErr
}

func (e *ending) FetchEnd() { e.ends++ }

func (e *ending) FetchSet(_ context.Context, _ Client, _ pcp.PMID, _ ProfileView, add func(int32, pcp.Type, *pcp.Atom) error) error {
	e.endsAtStart = e.ends
	if e.panics {
		panic("agent bug")
	}
	if e.setErr != nil {
		return e.setErr
	}
	return add(pcp.InstNull, pcp.Type32, &pcp.Atom{L: 7})
}

// TestFetchEnd: FetchEnd follows every Refresh that returned nil, after
// the request's FetchSet calls, whether the request succeeds, fails as a
// whole, or panics in the agent; a failed Refresh gets none.
func TestFetchEnd(t *testing.T) {
	boom := errors.New("boom")
	for _, c := range []struct {
		name     string
		e        ending
		wantErr  bool
		wantEnds int
	}{
		{"values", ending{}, false, 1},
		{"set error", ending{setErr: pcp.ErrPMID}, false, 1},
		{"request fails", ending{setErr: FailRequest(pcp.ErrAgain)}, true, 1},
		{"panic", ending{panics: true}, true, 1},
		{"refresh fails", ending{refreshErr: boom}, true, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := c.e
			a := newTestAgent(t, &e)
			_, err := a.Handle(bg, 0, &pdu.Fetch{PMIDs: []pcp.PMID{pmid(itemU32), pmid(itemPartial)}})
			if (err != nil) != c.wantErr {
				t.Fatalf("Handle: %v, want an error %v", err, c.wantErr)
			}
			if e.refreshes != 1 || e.ends != c.wantEnds {
				t.Errorf("%d refreshes, %d ends; want 1, %d", e.refreshes, e.ends, c.wantEnds)
			}
			if e.endsAtStart != 0 {
				t.Errorf("FetchEnd called before the request's FetchSet")
			}
		})
	}
}
