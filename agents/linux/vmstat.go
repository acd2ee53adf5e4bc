package linux

import (
	"github.com/gopcp/gopcp/pmda"
	"strings"
)

// vmstatData adds to /proc/vmstat's numbers the page reclaim totals that
// PCP sums from the per-zone lines it knows.
type vmstatData struct {
	stealTotal, scanKswapd, scanDirect uint64
}

// vmstatTotal says whether a metric sums lines rather than reports one.
func vmstatTotal(name string) bool {
	switch name {
	case "pgsteal_total", "pgscan_kswapd_total", "pgscan_direct_total":
		return true
	}
	return false
}

func (x *Linux) bindVmstat() {
	k := &x.vm
	x.sources[srcVmstat] = x.readVmstat
	const prefix = "mem.vmstat."
	for i := range pcpDescs {
		name := pcpDescs[i].Name
		if !strings.HasPrefix(name, prefix) || vmstatTotal(name[len(prefix):]) {
			continue
		}
		x.bind(name, srcVmstat, k.getter(k.slot(name[len(prefix):])))
	}
	// Two counters are sums of later ones when the kernel lacks them: the
	// slab count, split in 2.6.18, and thp_split, split in 4.5.
	x.bind(prefix+"nr_slab", srcVmstat, k.sumGetter("nr_slab", "nr_slab_reclaimable", "nr_slab_unreclaimable"))
	x.bind(prefix+"thp_split", srcVmstat, k.sumGetter("thp_split", "thp_split_page", "thp_split_page_failed"))
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

// sumGetter serves key, or when the file has no such line the sum of
// parts. PCP's agent marks an absent line as all ones and adds the marks
// too, so a missing part subtracts one (wrapping) from the sum and two
// missing parts give 2^64-2; only an all-ones sum has no value. Users of
// PCP see those figures, so this agent reports the same.
func (k *kvData) sumGetter(key string, parts ...string) getter {
	whole := k.slot(key)
	slots := make([]int, len(parts))
	for i, p := range parts {
		slots[i] = k.slot(p)
	}
	return func(int32) (pcpAtom, error) {
		if v, ok := k.value(whole); ok {
			return u64(v), nil
		}
		var sum uint64
		for _, i := range slots {
			v, ok := k.value(i)
			if !ok {
				v = absentMark
			}
			sum += v
		}
		if sum == absentMark {
			return pcpAtom{}, pmda.ErrNoValue
		}
		return u64(sum), nil
	}
}

// absentMark is PCP's agent's marker for a counter the kernel lacks.
const absentMark = ^uint64(0)

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
