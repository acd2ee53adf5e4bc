package archive

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

func u32Set(pmid pcp.PMID, vals map[int32]int32) pcp.ValueSet {
	vs := pcp.ValueSet{PMID: pmid, ValFmt: pcp.ValInSitu}
	for _, inst := range []int32{-1, 0, 1, 2, 3, 4} {
		if v, ok := vals[inst]; ok {
			vs.Values = append(vs.Values, pcp.Value{Inst: inst, LVal: v})
		}
	}
	vs.NumVal = int32(len(vs.Values))
	return vs
}

// TestWriterRoundTrip writes an archive of each version with every kind
// of record, several volumes and a mark, and reads it back with the
// package's reader.
func TestWriterRoundTrip(t *testing.T) {
	for _, v := range []int{Version3, Version2} {
		base := filepath.Join(t.TempDir(), "w")
		w, err := Create(base, WriterOptions{Version: v, Hostname: "h", Timezone: "UTC", Zoneinfo: ":Etc/UTC"})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.PutDesc(pcp.Desc{}, nil); !errors.Is(err, ErrNotStarted) {
			t.Fatalf("v%d: metadata before the label: %v", v, err)
		}
		single := pcp.NewPMID(29, 0, 1)
		multi := pcp.NewPMID(29, 0, 2)
		indom := pcp.NewInDom(29, 1)
		t0 := pcp.Timestamp{Sec: 1700000000, Nsec: 123456789}
		at := func(i int) pcp.Timestamp { return pcp.Timestamp{Sec: t0.Sec + int64(i), Nsec: t0.Nsec} }
		if err := w.Start(t0); err != nil {
			t.Fatal(err)
		}
		data0, meta0 := w.Offsets()
		must := func(err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		must(w.PutDesc(pcp.Desc{PMID: single, Type: pcp.TypeU32, InDom: pcp.InDomNull, Sem: pcp.SemCounter, Units: pcp.Units{DimTime: 1, ScaleTime: 3}}, []string{"a.single", "b.single"}))
		must(w.PutDesc(pcp.Desc{PMID: multi, Type: pcp.Type32, InDom: indom, Sem: pcp.SemInstant}, []string{"a.multi"}))
		full := &InDom{Stamp: t0, Insts: []int32{0, 1, 2}, Names: []string{"zero", "one", "two"}}
		must(w.PutInDom(indom, full, false))
		must(w.PutLabels(1, uint32(pcp.InDomNull), t0, []pcp.LabelSet{{Inst: pcp.InstNull, NLabels: 1, JSON: `{"a":1}`,
			Labels: []pcp.Label{{Name: 2, NameLen: 1, Value: 5, ValueLen: 1}}}}))
		must(w.PutText(TextOneLine|TextPMID, uint32(single), "one line"))
		must(w.PutText(TextHelp|TextInDom, uint32(indom), "help\ntext"))
		must(w.PutIndex(t0, data0, meta0))
		for i := 0; i < 6; i++ {
			if i == 3 {
				if _, err := w.NewVolume(); err != nil {
					t.Fatal(err)
				}
				// an instance joins and one leaves
				now := &InDom{Stamp: at(i), Insts: []int32{0, 1, 3}, Names: []string{"zero", "one", "three"}}
				kind, delta := CompareInDom(v, full, now)
				switch {
				case v == Version3 && kind != InDomDelta, v == Version2 && kind != InDomFull:
					t.Fatalf("v%d: change is %v", v, kind)
				case kind == InDomDelta:
					must(w.PutInDom(indom, delta, true))
				default:
					must(w.PutInDom(indom, now, false))
				}
				full = now
			}
			vals := map[int32]int32{}
			for _, in := range full.Insts {
				vals[in] = int32(100*i) + in
			}
			r := &pcp.Result{Timestamp: at(i), Sets: []pcp.ValueSet{u32Set(single, map[int32]int32{-1: int32(i)}), u32Set(multi, vals)}}
			must(w.PutResult(r))
			if i == 4 {
				must(w.PutMark(pcp.Timestamp{Sec: at(i).Sec, Nsec: at(i).Nsec + 1000000}))
			}
		}
		must(w.Close())
		if _, err := Create(base, WriterOptions{}); err == nil {
			t.Fatalf("v%d: Create over an existing archive succeeded", v)
		}

		a, err := Open(base, Options{})
		if err != nil {
			t.Fatalf("v%d: %v", v, err)
		}
		wantStart := t0
		if v == Version2 {
			wantStart.Nsec = t0.Nsec / 1000 * 1000
		}
		if a.Version() != v || a.Label.Hostname != "h" || a.Label.Start != wantStart || a.MaxVol != 1 {
			t.Errorf("v%d: label %+v, volumes %d..%d", v, a.Label, a.MinVol, a.MaxVol)
		}
		names, err := a.Meta.Names(single)
		if err != nil || len(names) != 2 {
			t.Errorf("v%d: names %v %v", v, names, err)
		}
		d, err := a.Meta.Desc(single)
		if err != nil || d.Units.DimTime != 1 || d.Sem != pcp.SemCounter {
			t.Errorf("v%d: desc %+v %v", v, d, err)
		}
		if txt, err := a.Meta.Text(TextHelp, TextInDom, uint32(indom)); err != nil || txt != "help\ntext" {
			t.Errorf("v%d: help text %q %v", v, txt, err)
		}
		id, err := a.Meta.LatestInDom(indom)
		if err != nil || len(id.Insts) != 3 || id.Insts[2] != 3 || id.Names[2] != "three" {
			t.Errorf("v%d: latest instance domain %+v %v", v, id, err)
		}
		r := a.NewReader()
		var res pcp.Result
		n, marks := 0, 0
		for {
			err := r.Fetch(&res)
			if errors.Is(err, pcp.ErrEOL) {
				break
			}
			if err != nil {
				t.Fatalf("v%d: record %d: %v", v, n, err)
			}
			if len(res.Sets) == 0 {
				marks++
				continue
			}
			if res.Sets[0].Values[0].LVal != int32(n) || res.Sets[1].NumVal != 3 {
				t.Errorf("v%d: record %d = %+v", v, n, res.Sets)
			}
			n++
		}
		r.Close()
		if n != 6 || marks != 1 {
			t.Errorf("v%d: %d records and %d marks, want 6 and 1", v, n, marks)
		}
		if len(a.Index) != 1 {
			t.Errorf("v%d: index %+v", v, a.Index)
		}
		for _, f := range []string{".0", ".1", ".meta", ".index"} {
			if _, err := os.Stat(base + f); err != nil {
				t.Errorf("v%d: %v", v, err)
			}
		}
	}
}

func TestCompareInDom(t *testing.T) {
	id := func(insts ...int32) *InDom {
		d := &InDom{Insts: insts}
		for _, in := range insts {
			d.Names = append(d.Names, "i"+string(rune('0'+in)))
		}
		return d
	}
	renamed := id(1, 2)
	renamed.Names[1] = "other"
	tests := []struct {
		name     string
		v        int
		old, now *InDom
		want     InDomChange
		delta    []int32
		deleted  []bool
	}{
		{"first", 3, nil, id(1), InDomFull, nil, nil},
		{"same", 3, id(1, 2), id(1, 2), InDomSame, nil, nil},
		{"added and removed", 3, id(1, 2, 3, 4), id(1, 3, 4, 5), InDomDelta, []int32{2, 5}, []bool{true, false}},
		{"version 2", 2, id(1, 2, 3, 4), id(1, 3, 4, 5), InDomFull, nil, nil},
		{"renamed", 3, id(1, 2), renamed, InDomFull, nil, nil},
		{"most changed", 3, id(1, 2, 3), id(4), InDomFull, nil, nil},
	}
	for _, tt := range tests {
		got, d := CompareInDom(tt.v, tt.old, tt.now)
		if got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
			continue
		}
		if tt.delta != nil {
			if len(d.Insts) != len(tt.delta) {
				t.Errorf("%s: delta %+v", tt.name, d)
				continue
			}
			for i := range tt.delta {
				if d.Insts[i] != tt.delta[i] || d.Deleted[i] != tt.deleted[i] {
					t.Errorf("%s: delta %+v", tt.name, d)
				}
			}
		}
	}
}
