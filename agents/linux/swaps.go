package linux

// swapDev is one line of /proc/swaps.
type swapDev struct {
	size, used uint64 // Kbytes
	prio       int64
	present    bool
}

type swapsData struct {
	devs []swapDev
}

func (x *Linux) bindSwaps() {
	sd := &x.swaps
	x.sources[srcSwaps] = x.readSwaps
	get := func(inst int32) *swapDev {
		if inst < 0 || int(inst) >= len(sd.devs) || !sd.devs[inst].present {
			return nil
		}
		return &sd.devs[inst]
	}
	one := func(name string, f func(d *swapDev) pcpAtom) {
		x.bind("swapdev."+name, srcSwaps, func(inst int32) (pcpAtom, error) {
			d := get(inst)
			if d == nil {
				return pcpAtom{}, noInst
			}
			return f(d), nil
		})
	}
	one("free", func(d *swapDev) pcpAtom { return u32(d.size - d.used) })
	one("length", func(d *swapDev) pcpAtom { return u32(d.size) })
	one("maxswap", func(d *swapDev) pcpAtom { return u32(d.size) })
	one("vlength", func(d *swapDev) pcpAtom { return u32(0) })
	one("priority", func(d *swapDev) pcpAtom { return i32(d.prio) })
}

// readSwaps parses /proc/swaps: "Filename Type Size Used Priority".
func (x *Linux) readSwaps() error {
	b, err := x.readProc("swaps")
	if err != nil {
		return err
	}
	sd := &x.swaps
	for i := range sd.devs {
		sd.devs[i].present = false
	}
	t := &x.indoms[swapdevInDom]
	t.begin()
	_, b = nextLine(b) // the heading
	for len(b) > 0 {
		var line []byte
		line, b = nextLine(b)
		x.fields = fields(line, x.fields)
		f := x.fields
		if len(f) < 5 {
			continue
		}
		id := t.add(f[0])
		for int(id) >= len(sd.devs) {
			sd.devs = append(sd.devs, swapDev{})
		}
		d := &sd.devs[id]
		d.size, d.used, d.prio, d.present = parseU64(f[2]), parseU64(f[3]), parseI64(f[4]), true
	}
	t.end()
	return nil
}
