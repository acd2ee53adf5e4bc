package pdu

import (
	"slices"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// sampleLongKids are the children of sample.long, as `pminfo sample.long`
// lists them (with the prefix).
var sampleLongKids = []string{"one", "ten", "hundred", "million", "write_me", "bin", "bin_ctr"}

func TestPMNSCapturedRoundTrip(t *testing.T) {
	decodeCaptured[PMNSIDs](t)
	decodeCaptured[PMNSNames](t)
	decodeCaptured[PMNSChild](t)
	decodeCaptured[PMNSTraverse](t)
}

// TestPMNSCapturedExchanges follows each request in a capture to the
// answer after it on the same connection and checks the pair: a name list is answered by one PMID
// per name, sample.long.one's being the one `pminfo -m` gives; a PMID is
// answered by its names; the children of sample.long, and the metrics
// under it in a traversal, are as pminfo lists them; status words come
// exactly when asked for.
func TestPMNSCapturedExchanges(t *testing.T) {
	checked := map[string]bool{}
	for _, c := range loadGolden(t) {
		var asked any
		for _, p := range c.pdus {
			if !isMetaType(p.h.Type) {
				continue
			}
			m, err := Decode(p.b)
			if err != nil {
				continue
			}
			if p.connector {
				asked = m
				continue
			}
			switch q := asked.(type) {
			case *PMNSNames:
				ids, ok := m.(*PMNSIDs)
				if !ok {
					break
				}
				checked["names→ids"] = true
				if len(ids.PMIDs) != len(q.Names) {
					t.Errorf("%s: %d PMIDs for %d names", p.where(), len(ids.PMIDs), len(q.Names))
					break
				}
				known := 0
				for i, n := range q.Names {
					if ids.PMIDs[i] != pcp.PMIDNull {
						known++
					}
					if n == "sample.long.one" && ids.PMIDs[i] != sampleLongOne.PMID {
						t.Errorf("%s: %s is %v", p.where(), n, ids.PMIDs[i])
					}
				}
				// pmcd's status is the count of names it knows; an agent,
				// asked one name at a time, sends its lookup's status, 0.
				if int(ids.Status) != known && (len(ids.PMIDs) != 1 || ids.Status != 0) {
					t.Errorf("%s: status %d for %d known names", p.where(), ids.Status, known)
				}
			case *PMNSIDs:
				names, ok := m.(*PMNSNames)
				if !ok || len(q.PMIDs) != 1 || q.PMIDs[0] != sampleLongOne.PMID {
					break
				}
				checked["id→names"] = true
				if !slices.Contains(names.Names, "sample.long.one") {
					t.Errorf("%s: names of %v are %q", p.where(), q.PMIDs[0], names.Names)
				}
			case *PMNSChild:
				names, ok := m.(*PMNSNames)
				if !ok {
					break
				}
				if (names.Status != nil) != (q.Subtype == PMNSChildStatus) && len(names.Names) > 0 {
					t.Errorf("%s: subtype %d answered with status %v", p.where(), q.Subtype, names.Status)
				}
				if q.Name == "sample.long" {
					checked["child"] = true
					if !slices.Equal(names.Names, sampleLongKids) {
						t.Errorf("%s: children %q, want %q", p.where(), names.Names, sampleLongKids)
					}
					for i, s := range names.Status {
						if s != PMNSLeafStatus {
							t.Errorf("%s: %s has status %d", p.where(), names.Names[i], s)
						}
					}
				}
			case *PMNSTraverse:
				names, ok := m.(*PMNSNames)
				if !ok {
					break
				}
				var long []string
				for _, n := range names.Names {
					if q.Name != "" && n != q.Name && !strings.HasPrefix(n, q.Name+".") {
						t.Errorf("%s: %q is not under %q", p.where(), n, q.Name)
					}
					if strings.HasPrefix(n, "sample.long.") {
						long = append(long, strings.TrimPrefix(n, "sample.long."))
					}
				}
				if q.Name == "sample" || q.Name == "sample.long" {
					checked["traverse"] = true
					if !slices.Equal(long, sampleLongKids) {
						t.Errorf("%s: traversal of %q has sample.long.%q, want %q", p.where(), q.Name, long, sampleLongKids)
					}
				}
			}
			asked = nil
		}
	}
	for _, k := range []string{"names→ids", "id→names", "child", "traverse"} {
		if !checked[k] {
			t.Errorf("captures hold no %s exchange to check", k)
		}
	}
}

// TestPMNSNamesLayouts checks the two layouts against each other: the
// status form is the plain form with a status word before each entry.
func TestPMNSNamesLayouts(t *testing.T) {
	names := []string{"a", "bcde", ""}
	plain := (&PMNSNames{Names: names}).Append(nil, 0)
	status := (&PMNSNames{Names: names, Status: []int32{0, 1, 0}}).Append(nil, 0)
	want := []byte{
		0, 0, 0, 8, // string bytes: 1+1 + 4+1 + 0+1
		0, 0, 0, 0, // no status
		0, 0, 0, 3,
		0, 0, 0, 1, 'a', '~', '~', '~',
		0, 0, 0, 4, 'b', 'c', 'd', 'e',
		0, 0, 0, 0,
	}
	if string(plain[HeaderSize:]) != string(want) {
		t.Errorf("plain body %x, want %x", plain[HeaderSize:], want)
	}
	if len(status) != len(plain)+12 || status[HeaderSize+7] != 3 {
		t.Errorf("status form %x", status)
	}
	var m PMNSNames
	if err := m.Decode(status); err != nil || !slices.Equal(m.Status, []int32{0, 1, 0}) || !slices.Equal(m.Names, names) {
		t.Errorf("decoded %+v, %v", m, err)
	}
}

func TestPMNSMalformed(t *testing.T) {
	ids := (&PMNSIDs{Status: 1, PMIDs: []pcp.PMID{sampleLongOne.PMID}}).Append(nil, 0)
	names := (&PMNSNames{Names: []string{"sample.long.one", "x"}}).Append(nil, 0)
	status := (&PMNSNames{Names: []string{"one", "x"}, Status: []int32{0, 1}}).Append(nil, 0)
	child := (&PMNSChild{Subtype: PMNSChildStatus, Name: "sample"}).Append(nil, 0)
	trav := (&PMNSTraverse{Name: "sample.long"}).Append(nil, 0)
	// names: string bytes 12, status count 16, name count 20, first name
	// length 24, second 44. status: first status 24, first length 28.
	runMalformed(t, []malformed{
		{"ids count zero", resized(patched(ids, 16, 0), 20)},
		{"ids count lies", patched(ids, 16, 2)},
		{"ids count negative", patched(ids, 16, 0xffffffff)},
		{"names string bytes negative", patched(names, 12, 0xffffffff)},
		{"names string bytes too few", patched(names, 12, 17)},
		{"names string bytes beyond PDU", patched(names, 12, 1000)},
		{"names status count not name count", patched(names, 16, 1)},
		{"names name count negative", patched(names, 20, 0xfffffffe)},
		{"names name count huge", patched(names, 20, 0x40000000)},
		{"names name count lies high", patched(names, 20, 3)},
		{"names name count lies low", patched(names, 20, 1)},
		{"names name length negative", patched(names, 24, 0x80000000)},
		{"names name length past end", patched(names, 24, 100)},
		{"names padding missing", resized(names, len(names)-3)},
		{"status status count zero", patched(status, 16, 0)},
		{"status status count wrong", patched(status, 16, 3)},
		{"status name length past end", patched(status, 28, 60)},
		{"child name length negative", patched(child, 16, 0xffffffff)},
		{"child name length lies high", patched(child, 16, 9)},
		{"child name length lies low", patched(child, 16, 3)},
		{"child no name length", resized(child, 16)},
		{"traverse name length huge", patched(trav, 16, 0x7fffffff)},
		{"traverse header only", resized(trav, HeaderSize)},
	})
}

// TestPMNSNamesShortStatus: a status list shorter than the names encodes
// the missing ones as leaves instead of failing.
func TestPMNSNamesShortStatus(t *testing.T) {
	m := &PMNSNames{Names: []string{"a", "b"}, Status: []int32{PMNSNonLeafStatus}}
	var got PMNSNames
	if err := got.Decode(m.Append(nil, 0)); err != nil {
		t.Fatal(err)
	}
	if len(got.Status) != 2 || got.Status[0] != PMNSNonLeafStatus || got.Status[1] != PMNSLeafStatus {
		t.Errorf("status %v", got.Status)
	}
}
