package pdu

import (
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

func TestDescIDsCaptured(t *testing.T) {
	for _, m := range decodeCaptured[DescIDs](t) {
		if len(m.PMIDs) == 0 {
			t.Errorf("empty list decoded")
		}
	}
}

// TestDescsCaptured checks that each DESCS answers the DESC_IDS before it
// on the same connection, one descriptor per PMID in order, and that
// sample.long.one, when among them, is as pminfo describes it.
func TestDescsCaptured(t *testing.T) {
	decodeCaptured[Descs](t)
	answered := 0
	for _, c := range loadGolden(t) {
		var asked []pcp.PMID
		for _, p := range c.pdus {
			switch p.h.Type {
			case TypeDescIDs:
				var m DescIDs
				if err := m.Decode(p.b); err != nil {
					t.Fatalf("%s: %v", p.where(), err)
				}
				asked = m.PMIDs
			case TypeDescs:
				var m Descs
				if err := m.Decode(p.b); err != nil {
					t.Fatalf("%s: %v", p.where(), err)
				}
				if len(m.Descs) != len(asked) {
					t.Errorf("%s: %d descs for %d PMIDs", p.where(), len(m.Descs), len(asked))
					continue
				}
				answered++
				for i, d := range m.Descs {
					if d.PMID != asked[i] && d.PMID != pcp.PMIDNull {
						t.Errorf("%s: desc %d is for %v, asked %v", p.where(), i, d.PMID, asked[i])
					}
					if d.PMID == sampleLongOne.PMID && d != sampleLongOne {
						t.Errorf("%s: got %+v, want %+v", p.where(), d, sampleLongOne)
					}
				}
			}
		}
	}
	if answered == 0 {
		t.Error("no DESCS follows a DESC_IDS")
	}
}

func TestDescsMalformed(t *testing.T) {
	ids := (&DescIDs{PMIDs: []pcp.PMID{1, 2}}).Append(nil, 0)
	descs := (&Descs{Descs: []pcp.Desc{sampleLongOne, sampleLongOne}}).Append(nil, 0)
	runMalformed(t, []malformed{
		{"ids status not -1", patched(ids, 12, 0)},
		{"ids count zero", resized(patched(ids, 16, 0), 20)},
		{"ids count negative", patched(ids, 16, 0xffffffff)},
		{"ids count lies high", patched(ids, 16, 3)},
		{"ids count lies low", patched(ids, 16, 1)},
		{"ids count huge", patched(ids, 16, 0x7fffffff)},
		{"ids no count", resized(ids, 16)},
		{"descs count zero", resized(patched(descs, 12, 0), 16)},
		{"descs count negative", patched(descs, 12, 0x80000000)},
		{"descs count lies high", patched(descs, 12, 3)},
		{"descs count lies low", patched(descs, 12, 1)},
		{"descs partial desc", resized(descs, len(descs)-4)},
		{"descs empty body", resized(descs, HeaderSize)},
	})
}
