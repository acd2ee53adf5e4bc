package webapi

import (
	"slices"
	"testing"
)

// TestInstDictOrder checks the order against PCP 6.0.3's pmproxy's
// /pmapi/indom answers for the sample agent's instance domains, each
// instance looked up then added in pmcd's order, as a fresh web context
// does (each instance looked up then added, then the instances with
// labels of their own looked up again as their labels are loaded): 29.2
// (bin-100 .. bin-900, each labelled) and 29.1 (red, green, blue).
func TestInstDictOrder(t *testing.T) {
	for _, c := range []struct {
		insts    []int32
		labelled bool
		want     []int32
	}{
		{[]int32{100, 200, 300, 400, 500, 600, 700, 800, 900}, true, []int32{900, 100, 800, 400, 500, 300, 200, 600, 700}},
		{[]int32{0, 1, 2}, false, []int32{2, 1, 0}},
	} {
		d := newInstDict()
		for _, i := range c.insts {
			if d.find(i) == nil {
				d.add(&instance{inst: i})
			}
		}
		if c.labelled {
			for _, i := range c.insts {
				d.find(i)
			}
		}
		var got []int32
		d.each(func(e *instance) { got = append(got, e.inst) })
		if !slices.Equal(got, c.want) {
			t.Errorf("order of %v = %v, want %v", c.insts, got, c.want)
		}
	}
}

// FuzzRDict drives the dict with lookups and insertions and checks it
// against a map: every key added is found, none other is, and iteration
// and scanning each visit every entry once, whatever the rehash state.
func FuzzRDict(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 2})
	f.Fuzz(func(t *testing.T, ops []byte) {
		d := newRDict[int32, bool](hashInst)
		want := map[int32]bool{}
		for _, op := range ops {
			k := int32(op & 0x3f)
			if op&0x40 != 0 {
				if _, ok := d.find(k); ok != want[k] {
					t.Fatalf("find(%d) = %v, want %v", k, ok, want[k])
				}
				continue
			}
			if _, ok := d.find(k); !ok {
				d.add(k, true)
				want[k] = true
			}
		}
		for name, visit := range map[string]func(func(*rentry[int32, bool])){"each": d.each, "scan": d.scan} {
			seen := map[int32]int{}
			visit(func(e *rentry[int32, bool]) { seen[e.key]++ })
			if len(seen) != len(want) {
				t.Fatalf("%s visited %d keys, want %d", name, len(seen), len(want))
			}
			for k, n := range seen {
				if n != 1 || !want[k] {
					t.Fatalf("%s visited %d %d times", name, k, n)
				}
			}
		}
	})
}
