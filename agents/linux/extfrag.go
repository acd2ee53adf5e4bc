package linux

import "github.com/gopcp/gopcp/pmda"

// sysfs.kernel.debug.extfrag_unusable: per NUMA node, the sum of the
// Normal zone's unusable free space indices of debugfs's
// extfrag/unusable_index (one per allocation order), summed in single
// precision as PCP's agent sums them.

type extfragData struct {
	sum []float32 // by node
	has []bool
}

func (x *Linux) bindExtfrag() {
	e := &x.extfrag
	x.sources[srcExtfrag] = x.readExtfrag
	x.bind("sysfs.kernel.debug.extfrag_unusable", srcExtfrag, func(inst int32) (pcpAtom, error) {
		if inst < 0 || int(inst) >= len(e.has) || !e.has[inst] {
			if x.nodeKnown(inst) {
				return pcpAtom{}, pmda.ErrNoValue
			}
			return pcpAtom{}, noInst
		}
		return f32(float64(e.sum[inst])), nil
	})
}

// nodeKnown reports whether inst is a NUMA node instance.
func (x *Linux) nodeKnown(inst int32) bool {
	for _, in := range x.indoms[nodeInDom].list() {
		if in.ID == inst {
			return true
		}
	}
	return false
}

func (x *Linux) readExtfrag() error {
	e := &x.extfrag
	clear(e.has)
	b, err := x.readSys("kernel/debug/extfrag/unusable_index")
	if err != nil {
		return nil
	}
	for len(b) > 0 {
		var line []byte
		line, b = nextLine(b)
		x.fields = fields(line, x.fields)
		f := x.fields
		// Node 0, zone   Normal 0.000 0.001 ...
		if len(f) < 5 || string(f[0]) != "Node" || string(f[3]) != "Normal" {
			continue
		}
		n := parseU64(f[1])
		if n > maxCPU {
			continue
		}
		for uint64(len(e.sum)) <= n {
			e.sum = append(e.sum, 0)
			e.has = append(e.has, false)
		}
		var sum float32
		for _, v := range f[4:min(len(f), 4+16)] {
			sum += float32(parseFloat(v))
		}
		e.sum[n], e.has[n] = sum, true
	}
	return nil
}
