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
