package archive

import (
	"path/filepath"
	"slices"
	"testing"
	"unsafe"

	"github.com/gopcp/gopcp/pcp"
)

// TestInDomRecordsShare writes an instance domain again unchanged, then
// changed, and checks that loading gives each record its own instances
// and names as recorded while the repeat shares the record before it and
// the changed record shares the names it kept.
func TestInDomRecordsShare(t *testing.T) {
	const indom = pcp.InDom(60<<22 | 1)
	for _, v := range []int{Version2, Version3} {
		base := filepath.Join(t.TempDir(), "a")
		w, err := Create(base, WriterOptions{Version: v, Hostname: "h"})
		if err != nil {
			t.Fatal(err)
		}
		t0 := pcp.Timestamp{Sec: 1700000000}
		at := func(i int) pcp.Timestamp { return pcp.Timestamp{Sec: t0.Sec + int64(i)} }
		must := func(err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		must(w.Start(t0))
		data0, meta0 := w.Offsets()
		must(w.PutDesc(pcp.Desc{PMID: pcp.PMID(60<<22 | 1), Type: pcp.TypeU32, InDom: indom, Sem: pcp.SemInstant}, []string{"m"}))
		recs := []*InDom{
			{Stamp: at(0), Insts: []int32{2, 0, 1}, Names: []string{"two", "zero", "one"}},
			{Stamp: at(1), Insts: []int32{2, 0, 1}, Names: []string{"two", "zero", "one"}},
			{Stamp: at(2), Insts: []int32{0, 1, 3}, Names: []string{"zero", "uno", "three"}},
		}
		for _, r := range recs {
			must(w.PutInDom(indom, r, false))
		}
		must(w.PutIndex(t0, data0, meta0))
		must(w.PutResult(&pcp.Result{Timestamp: at(0)}))
		must(w.Close())

		a, err := Open(base, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var got [3]*InDom
		for i := range got {
			if got[i], err = a.Meta.InDomAt(indom, at(i)); err != nil || got[i].Stamp != at(i) {
				t.Fatalf("v%d: record %d: %+v %v", v, i, got[i], err)
			}
		}
		want := [][2]any{
			{[]int32{0, 1, 2}, []string{"zero", "one", "two"}},
			{[]int32{0, 1, 2}, []string{"zero", "one", "two"}},
			{[]int32{0, 1, 3}, []string{"zero", "uno", "three"}},
		}
		for i, w := range want {
			if !slices.Equal(got[i].Insts, w[0].([]int32)) || !slices.Equal(got[i].Names, w[1].([]string)) {
				t.Errorf("v%d: record %d = %v %q, want %v %q", v, i, got[i].Insts, got[i].Names, w[0], w[1])
			}
		}
		if &got[0].Insts[0] != &got[1].Insts[0] || &got[0].Names[0] != &got[1].Names[0] {
			t.Errorf("v%d: the repeated record has slices of its own", v)
		}
		if unsafe.StringData(got[2].Names[0]) != unsafe.StringData(got[1].Names[0]) {
			t.Errorf("v%d: the changed record copied the name it kept", v)
		}
	}
}

// TestInDomSharingSameAsDecoded checks every instance domain of the
// largest QA archives against its records decoded alone, sharing nothing.
func TestInDomSharingSameAsDecoded(t *testing.T) {
	for _, name := range []string{"20180102", "20180127.08.40", "dm-io", "20180416.10.00"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel() // each reads an archive of its own
			base := filepath.Join("/var/lib/pcp/testsuite/archives", name)
			a, err := Open(base, Options{})
			if err != nil {
				t.Skipf("QA archive %s: %v", name, err)
			}
			defer a.Close()
			type rec struct {
				insts []int32
				names []string
			}
			alone := map[pcp.InDom][]rec{}
			err = a.EachDiskInDom(func(typ int, indom pcp.InDom, id *InDom, _ int32) {
				if typ == TypeInDomDelta || len(id.Insts) == 0 {
					return
				}
				sortInsts(id)
				alone[indom] = append(alone[indom], rec{id.Insts, id.Names})
			})
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			a.Meta.EachInDom(func(indom pcp.InDom, h []*InDom) {
				if len(h) != len(alone[indom]) {
					t.Errorf("%s: %s has %d records, %d decoded alone", name, indom, len(h), len(alone[indom]))
					return
				}
				for i, id := range h {
					r := alone[indom][i]
					if !slices.Equal(id.Insts, r.insts) || !slices.Equal(id.Names, r.names) {
						t.Errorf("%s: %s record %d differs from its record decoded alone", name, indom, i)
					}
					n++
				}
			})
			if n == 0 {
				t.Errorf("%s: no instance domain records", name)
			}
		})
	}
}
