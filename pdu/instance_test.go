package pdu

import (
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// sampleColours is sample.colour's instance domain, 29.1, as `pminfo -f
// sample.colour` lists it.
var (
	sampleColourInDom = pcp.NewInDom(29, 1)
	sampleColours     = []InstEntry{{0, "red"}, {1, "green"}, {2, "blue"}}
)

// TestInstanceReqCaptured checks the captured requests against the three
// forms pmGetInDom, pmLookupInDom and pmNameInDom send.
func TestInstanceReqCaptured(t *testing.T) {
	for _, m := range decodeCaptured[InstanceReq](t) {
		if m.Inst != pcp.InstNull && m.Name != "" {
			t.Errorf("%+v: both an instance and a name", m)
		}
	}
}

// TestInstanceCaptured checks that every answer about sample.colour's
// instance domain agrees with pminfo, whichever form it has.
func TestInstanceCaptured(t *testing.T) {
	found := false
	for _, m := range decodeCaptured[Instance](t) {
		if m.InDom != sampleColourInDom {
			continue
		}
		found = true
		for _, e := range m.Entries {
			ok := false
			for _, c := range sampleColours {
				ok = ok || (e.Inst == c.Inst || e.Inst == pcp.InstNull) && (e.Name == c.Name || e.Name == "")
			}
			if !ok || e == (InstEntry{pcp.InstNull, ""}) {
				t.Errorf("entry %+v is not one of %v", e, sampleColours)
			}
		}
		if len(m.Entries) > 1 && !equalEntries(m.Entries, sampleColours) {
			t.Errorf("full list %v, want %v", m.Entries, sampleColours)
		}
	}
	if !found {
		t.Errorf("no INSTANCE for %v", sampleColourInDom)
	}
}

func equalEntries(a, b []InstEntry) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestInstancePadding checks the filler PCP writes after names, which a
// capture shows only for the lengths it happens to hold.
func TestInstancePadding(t *testing.T) {
	for _, name := range []string{"", "a", "ab", "abc", "abcd", "abcde"} {
		b := (&InstanceReq{InDom: 1, Inst: pcp.InstNull, Name: name}).Append(nil, 0)
		if len(b)%4 != 0 {
			t.Errorf("%q: length %d", name, len(b))
		}
		for _, c := range b[32+len(name):] {
			if c != '~' {
				t.Errorf("%q: filler %x", name, b[32:])
			}
		}
	}
}

func TestInstanceMalformed(t *testing.T) {
	req := (&InstanceReq{InDom: sampleColourInDom, Inst: pcp.InstNull, Name: "green"}).Append(nil, 0)
	list := (&Instance{InDom: sampleColourInDom, Entries: sampleColours}).Append(nil, 0)
	// In list: indom 12, count 16, first inst 20, first name length 24.
	runMalformed(t, []malformed{
		{"req no name length", resized(req, 28)},
		{"req name length negative", patched(req, 28, 0xfffffffb)},
		{"req name length lies high", patched(req, 28, 9)},
		{"req name length lies low", patched(req, 28, 1)},
		{"req name length huge", patched(req, 28, 0x7fffffff)},
		{"req padding missing", resized(req, 32+5)},
		{"list count negative", patched(list, 16, 0xffffffff)},
		{"list count lies high", patched(list, 16, 4)},
		{"list count lies low", patched(list, 16, 2)},
		{"list count huge", patched(list, 16, 0x10000000)},
		{"list name length negative", patched(list, 24, 0x80000000)},
		{"list name length past end", patched(list, 24, 1000)},
		{"list no entries", resized(list, 20)},
	})
}
