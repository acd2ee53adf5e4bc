package pmda

import (
	"context"
	"testing"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// failingRefresh fails its next Refresh when fail is set.
type failingRefresh struct {
	*testFetcher
	fail bool
}

func (f *failingRefresh) Refresh(context.Context, []pcp.PMID) error {
	if f.fail {
		return pcp.ErrAgain
	}
	return nil
}

// TestNoteChange: changes noted reach the next successful fetch's answer
// in its timestamp's seconds, as libpcp_pmda's pmdaFetch carries them,
// through Fetch and through Handle's RESULT PDU alike; a failed fetch
// keeps them for the next; an answer takes them only once.
func TestNoteChange(t *testing.T) {
	f := &failingRefresh{testFetcher: &testFetcher{}}
	a := newTestAgent(t, f)
	ids := []pcp.PMID{pmid(itemU32)}
	fetch := func() int64 {
		t.Helper()
		r, err := a.Fetch(bg, 0, ids)
		if err != nil {
			t.Fatal(err)
		}
		if r.Timestamp.Nsec != 0 {
			t.Errorf("nanoseconds %d, want 0", r.Timestamp.Nsec)
		}
		return r.Timestamp.Sec
	}
	if got := fetch(); got != 0 {
		t.Errorf("nothing noted: %d", got)
	}
	a.NoteChange(NamesChanged)
	a.NoteChange(LabelsChanged)
	a.NoteChange(Change(0xff)) // only the two bits an agent may set
	f.fail = true
	if _, err := a.Fetch(bg, 0, ids); err == nil {
		t.Fatal("the failing fetch answered")
	}
	f.fail = false
	if got, want := fetch(), int64(NamesChanged|LabelsChanged); got != want {
		t.Errorf("after notes: %#x, want %#x", got, want)
	}
	if got := fetch(); got != 0 {
		t.Errorf("the next fetch: %#x, want 0", got)
	}
	a.NoteChange(NamesChanged)
	reply, err := a.Handle(bg, 0, &pdu.Fetch{PMIDs: ids})
	if err != nil {
		t.Fatal(err)
	}
	b := reply.(*pdu.Result).Append(nil, 0)
	var back pdu.Result
	if err := back.Decode(b); err != nil {
		t.Fatal(err)
	}
	if back.Timestamp != (pcp.Timestamp{Sec: int64(NamesChanged)}) {
		t.Errorf("RESULT PDU's timestamp %+v, want %d seconds", back.Timestamp, NamesChanged)
	}
}
