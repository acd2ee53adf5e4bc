package pdu

import (
	"slices"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// TestProfileCaptured decodes every captured PROFILE. When a capture holds
// the profile pmval sends for `-i red,blue sample.colour`, it must read as
// PCP builds it: include everything globally, and for sample.colour's
// instance domain exclude all but instances 0 and 2 (red and blue).
func TestProfileCaptured(t *testing.T) {
	colour := false
	for _, p := range goldenOfType(t, TypeProfile) {
		var m Profile
		if err := m.Decode(p.b); err != nil {
			t.Errorf("%s: %v", p.where(), err)
			continue
		}
		if m.State != ProfileInclude && m.State != ProfileExclude {
			t.Errorf("%s: global state %d", p.where(), m.State)
		}
		for _, ip := range m.InDoms {
			if ip.InDom == indomSampleColour && slices.Equal(ip.Insts, []int32{0, 2}) {
				colour = true
				if m.State != ProfileInclude || ip.State != ProfileExclude {
					t.Errorf("%s: states %d/%d for an instance selection", p.where(), m.State, ip.State)
				}
			}
		}
	}
	if !colour {
		t.Log("no capture holds pmval -i red,blue's profile for sample.colour")
	}
}

func TestProfileRoundTrip(t *testing.T) {
	m := Profile{Context: 1, State: ProfileInclude, InDoms: []InDomProfile{
		{InDom: indomSampleColour, State: ProfileExclude, Insts: []int32{0, 2}},
		{InDom: pcp.NewInDom(29, 2), State: ProfileInclude},
		{InDom: pcp.NewInDom(60, 1), State: ProfileExclude, Insts: []int32{-5, 7, 9}},
	}}
	b := mustPDU(&m, 1)
	if want := HeaderSize + profileFixed + 3*profileEntry + 5*4; len(b) != want {
		t.Fatalf("encoded in %d bytes, want %d", len(b), want)
	}
	var got Profile
	if err := got.Decode(b); err != nil {
		t.Fatal(err)
	}
	if got.Context != m.Context || got.State != m.State || len(got.InDoms) != len(m.InDoms) {
		t.Fatalf("decoded %+v", got)
	}
	for i := range m.InDoms {
		w, g := m.InDoms[i], got.InDoms[i]
		if w.InDom != g.InDom || w.State != g.State || !slices.Equal(w.Insts, g.Insts) {
			t.Errorf("indom %d: got %+v, want %+v", i, g, w)
		}
	}
	// Appending to one list must not write into the next.
	got.InDoms[0].Insts = append(got.InDoms[0].Insts, 99)
	if got.InDoms[2].Insts[0] != -5 {
		t.Error("instance lists overlap")
	}
}

func TestProfileDecodeBad(t *testing.T) {
	m := Profile{InDoms: []InDomProfile{{InDom: 1, Insts: []int32{4}}}}
	good := mustPDU(&m, 0)
	set := func(off int, v uint32) []byte {
		b := bytesClone(good)
		b[off], b[off+1], b[off+2], b[off+3] = byte(v>>24), byte(v>>16), byte(v>>8), byte(v)
		return b
	}
	expectIPC(t, new(Profile), map[string][]byte{
		"negative context": set(12, 0xffffffff),
		"negative numprof": set(20, 0xffffffff),
		"numprof too big":  set(20, 2),
		"negative numinst": set(36, 0xffffffff),
		"numinst too big":  set(36, 2),
		"huge numinst":     set(36, 0x7fffffff),
		"instance missing": shrunk(good, 4),
		"bytes left":       grown(good, 4),
		"fixed part cut":   shrunk(mustPDU(&Profile{}, 0), 4),
		"wrong type":       mustPDU(&Fetch{PMIDs: []pcp.PMID{1}}, 0),
	})
}

func FuzzDecodeProfile(f *testing.F) {
	fuzzCodec[Profile](f, TypeProfile, mustPDU(&Profile{InDoms: []InDomProfile{{InDom: 1, Insts: []int32{4, 5}}, {InDom: 2}}}, 0))
}
