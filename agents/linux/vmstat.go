package linux

import "strings"

// vmstatData adds to /proc/vmstat's numbers the page reclaim totals that
// PCP sums from the per-zone lines it knows.
type vmstatData struct {
	stealTotal, scanKswapd, scanDirect uint64
}

// vmstatTotals are the metrics that sum lines rather than report one.
var vmstatTotals = map[string]bool{
	"pgsteal_total": true, "pgscan_kswapd_total": true, "pgscan_direct_total": true,
}

func (x *Linux) bindVmstat() {
	k := &x.vm
	x.sources[srcVmstat] = x.readVmstat
	const prefix = "mem.vmstat."
	for i := range pcpDescs {
		name := pcpDescs[i].name
		if !strings.HasPrefix(name, prefix) || vmstatTotals[name[len(prefix):]] {
			continue
		}
		x.bind(name, srcVmstat, k.getter(k.slot(name[len(prefix):])))
	}
	// Before 2.6.18 the slab count was one line; later it is two.
	slab, rec, unrec := k.slot("nr_slab"), k.slot("nr_slab_reclaimable"), k.slot("nr_slab_unreclaimable")
	x.bind(prefix+"nr_slab", srcVmstat, func(int32) (pcpAtom, error) {
		if v, ok := k.value(slab); ok {
			return u64(v), nil
		}
		r, ok1 := k.value(rec)
		u, ok2 := k.value(unrec)
		if !ok1 || !ok2 {
			return pcpAtom{}, errNoValue
		}
		return u64(r + u), nil
	})
	split, page, failed := k.slot("thp_split"), k.slot("thp_split_page"), k.slot("thp_split_page_failed")
	x.bind(prefix+"thp_split", srcVmstat, func(int32) (pcpAtom, error) {
		if v, ok := k.value(split); ok {
			return u64(v), nil
		}
		p, ok1 := k.value(page)
		f, ok2 := k.value(failed)
		if !ok1 || !ok2 {
			return pcpAtom{}, errNoValue
		}
		return u64(p + f), nil
	})
	t := &x.vmTotals
	x.bind(prefix+"pgsteal_total", srcVmstat, func(int32) (pcpAtom, error) { return u64(t.stealTotal), nil })
	x.bind(prefix+"pgscan_kswapd_total", srcVmstat, func(int32) (pcpAtom, error) { return u64(t.scanKswapd), nil })
	x.bind(prefix+"pgscan_direct_total", srcVmstat, func(int32) (pcpAtom, error) { return u64(t.scanDirect), nil })
	x.bind("swap.pagesin", srcVmstat, k.getter(k.slot("pswpin")))
	x.bind("swap.pagesout", srcVmstat, k.getter(k.slot("pswpout")))
	// Linux 2.6 and later count pages swapped, not swap operations.
	noOps := func(int32) (pcpAtom, error) { return pcpAtom{}, errAppVersion }
	x.bind("swap.in", srcVmstat, noOps)
	x.bind("swap.out", srcVmstat, noOps)
}

// readVmstat parses "name value" lines.
func (x *Linux) readVmstat() error {
	b, err := x.readProc("vmstat")
	if err != nil {
		return err
	}
	k := &x.vm
	k.reset()
	t := &x.vmTotals
	*t = vmstatData{}
	for len(b) > 0 {
		var line []byte
		line, b = nextLine(b)
		key, rest := nextField(line)
		i, ok := k.index[string(key)]
		if !ok {
			continue
		}
		v := parseU64(rest)
		k.vals[i], k.seen[i] = v, true
		switch {
		case hasPrefix(key, "pgsteal_"):
			t.stealTotal += v
		case hasPrefix(key, "pgscan_kswapd"):
			t.scanKswapd += v
		case hasPrefix(key, "pgscan_direct"):
			t.scanDirect += v
		}
	}
	return nil
}
