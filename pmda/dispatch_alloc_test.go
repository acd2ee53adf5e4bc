//go:build !race

package pmda

import (
	"bytes"
	"testing"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// TestHandleFetchAllocs: a steady fetch through Handle allocates nothing,
// as Fetch does not, so pmcd's in-process agents cost no more through it.
func TestHandleFetchAllocs(t *testing.T) {
	a := newTestAgent(t, &testFetcher{})
	req := &pdu.Fetch{PMIDs: []pcp.PMID{pmid(itemU32), pmid(itemInst), pmid(itemU64), pmid(itemDouble), pmid(itemPartial), pmid(99)}}
	var msg pdu.Message = req
	if _, err := a.Handle(bg, 3, msg); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := a.Handle(bg, 3, msg); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per steady fetch through Handle, want 0", allocs)
	}
}

// TestDispatchFetchAllocs: a daemon agent's steady fetch, decoded,
// answered through Handle and written, allocates nothing.
func TestDispatchFetchAllocs(t *testing.T) {
	a := newTestAgent(t, &testFetcher{})
	var out bytes.Buffer
	d := NewDispatcher(a, pdu.NewWriter(&out))
	req := (&pdu.Fetch{PMIDs: []pcp.PMID{pmid(itemU32), pmid(itemInst), pmid(itemU64), pmid(itemDouble), pmid(itemPartial), pmid(99)}}).Append(nil, 7)
	if err := d.Dispatch(bg, req); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(100, func() {
		out.Reset()
		if err := d.Dispatch(bg, req); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per steady dispatched fetch, want 0", allocs)
	}
	if m, err := pdu.Decode(out.Bytes()); err != nil || m.PDUType() != pdu.TypeResult {
		t.Errorf("reply %v, %v", m, err)
	}
}
