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

// TestDispatchProfileFetchAllocs: pmcd sends a daemon agent each fetch
// after the client's PROFILE when clients take turns; the pair, decoded,
// answered and written, allocates nothing once steady.
func TestDispatchProfileFetchAllocs(t *testing.T) {
	a := newTestAgent(t, &testFetcher{})
	var out bytes.Buffer
	d := NewDispatcher(a, pdu.NewWriter(&out))
	profs := [][]byte{
		(&pdu.Profile{Context: 0, State: pdu.ProfileInclude}).Append(nil, 7),
		(&pdu.Profile{Context: 0, State: pdu.ProfileInclude, InDoms: []pdu.InDomProfile{
			{InDom: pcp.NewInDom(testDomain, 1), State: pdu.ProfileExclude, Insts: []int32{1, 2}}}}).Append(nil, 8),
	}
	req := (&pdu.Fetch{PMIDs: []pcp.PMID{pmid(itemU32), pmid(itemInst), pmid(itemU64), pmid(itemDouble), pmid(itemPartial), pmid(99)}}).Append(nil, 7)
	turn := 0
	step := func() {
		out.Reset()
		if err := d.Dispatch(bg, profs[turn%2]); err != nil {
			t.Fatal(err)
		}
		turn++
		if err := d.Dispatch(bg, req); err != nil {
			t.Fatal(err)
		}
	}
	for range 4 {
		step()
	}
	if allocs := testing.AllocsPerRun(100, step); allocs != 0 {
		t.Errorf("%v allocations per steady PROFILE and FETCH, want 0", allocs)
	}
}
