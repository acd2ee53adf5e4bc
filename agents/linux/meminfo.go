package linux

import "github.com/gopcp/gopcp/pmda"

// meminfoDirect maps mem.util metrics to the /proc/meminfo line they
// report unchanged, in kilobytes (or pages for the huge page counts).
var meminfoDirect = []struct{ metric, key string }{
	{"mem.physmem", "MemTotal"},
	{"mem.freemem", "MemFree"},
	{"mem.util.free", "MemFree"},
	{"mem.util.shared", "MemShared"},
	{"mem.util.bufmem", "Buffers"},
	{"mem.util.cached", "Cached"},
	{"mem.util.swapCached", "SwapCached"},
	{"mem.util.active", "Active"},
	{"mem.util.inactive", "Inactive"},
	{"mem.util.highTotal", "HighTotal"},
	{"mem.util.highFree", "HighFree"},
	{"mem.util.lowTotal", "LowTotal"},
	{"mem.util.lowFree", "LowFree"},
	{"mem.util.swapTotal", "SwapTotal"},
	{"mem.util.swapFree", "SwapFree"},
	{"mem.util.dirty", "Dirty"},
	{"mem.util.writeback", "Writeback"},
	{"mem.util.mapped", "Mapped"},
	{"mem.util.slab", "Slab"},
	{"mem.util.committed_AS", "Committed_AS"},
	{"mem.util.pageTables", "PageTables"},
	{"mem.util.reverseMaps", "ReverseMaps"},
	{"mem.util.anonpages", "AnonPages"},
	{"mem.util.commitLimit", "CommitLimit"},
	{"mem.util.bounce", "Bounce"},
	{"mem.util.NFS_Unstable", "NFS_Unstable"},
	{"mem.util.slabReclaimable", "SReclaimable"},
	{"mem.util.slabUnreclaimable", "SUnreclaim"},
	{"mem.util.active_anon", "Active(anon)"},
	{"mem.util.inactive_anon", "Inactive(anon)"},
	{"mem.util.active_file", "Active(file)"},
	{"mem.util.inactive_file", "Inactive(file)"},
	{"mem.util.unevictable", "Unevictable"},
	{"mem.util.mlocked", "Mlocked"},
	{"mem.util.shmem", "Shmem"},
	{"mem.util.kernelStack", "KernelStack"},
	{"mem.util.hugepagesTotal", "HugePages_Total"},
	{"mem.util.hugepagesFree", "HugePages_Free"},
	{"mem.util.hugepagesRsvd", "HugePages_Rsvd"},
	{"mem.util.hugepagesSurp", "HugePages_Surp"},
	{"mem.util.directMap4k", "DirectMap4k"},
	{"mem.util.directMap2M", "DirectMap2M"},
	{"mem.util.directMap1G", "DirectMap1G"},
	{"mem.util.vmallocTotal", "VmallocTotal"},
	{"mem.util.vmallocUsed", "VmallocUsed"},
	{"mem.util.vmallocChunk", "VmallocChunk"},
	{"mem.util.mmap_copy", "MmapCopy"},
	{"mem.util.quicklists", "Quicklists"},
	{"mem.util.corrupthardware", "HardwareCorrupted"},
	{"mem.util.anonhugepages", "AnonHugePages"},
	{"mem.util.available", "MemAvailable"},
}

func (x *Linux) bindMeminfo() {
	k := &x.mem
	x.sources[srcMeminfo] = x.readMeminfo
	for _, e := range meminfoDirect {
		x.bind(e.metric, srcMeminfo, k.getter(k.slot(e.key)))
	}
	total, free := k.slot("MemTotal"), k.slot("MemFree")
	cached, buffers := k.slot("Cached"), k.slot("Buffers")
	dirty, writeback := k.slot("Dirty"), k.slot("Writeback")
	swapTotal, swapFree := k.slot("SwapTotal"), k.slot("SwapFree")
	hugeSize := k.slot("Hugepagesize")
	// derived combines slots; a missing one leaves no value, and a
	// difference that would go negative is zero.
	derived := func(name string, pack func(uint64) pcpAtom, f func(v []uint64) uint64, slots ...int) {
		x.bind(name, srcMeminfo, func(int32) (pcpAtom, error) {
			var v [4]uint64
			for i, s := range slots {
				n, ok := k.value(s)
				if !ok {
					return pcpAtom{}, pmda.ErrNoValue
				}
				v[i] = n
			}
			return pack(f(v[:len(slots)])), nil
		})
	}
	sub := func(v []uint64) uint64 {
		d := int64(v[0])
		for _, n := range v[1:] {
			d -= int64(n)
		}
		return uint64(max(d, 0))
	}
	derived("mem.util.used", u64, sub, total, free)
	derived("mem.util.other", u64, sub, total, free, cached, buffers)
	derived("mem.util.cache_clean", u64, sub, cached, dirty, writeback)
	derived("hinv.physmem", u32, func(v []uint64) uint64 { return v[0] >> 10 }, total)
	derived("swap.length", u64, func(v []uint64) uint64 { return v[0] << 10 }, swapTotal)
	derived("swap.free", u64, func(v []uint64) uint64 { return v[0] << 10 }, swapFree)
	derived("swap.used", u64, func(v []uint64) uint64 { return sub(v) << 10 }, swapTotal, swapFree)
	derived("hinv.hugepagesize", u32, func(v []uint64) uint64 { return v[0] << 10 }, hugeSize)
	for _, h := range []struct{ name, key string }{
		{"mem.util.hugepagesTotalBytes", "HugePages_Total"},
		{"mem.util.hugepagesFreeBytes", "HugePages_Free"},
		{"mem.util.hugepagesRsvdBytes", "HugePages_Rsvd"},
		{"mem.util.hugepagesSurpBytes", "HugePages_Surp"},
	} {
		derived(h.name, u64, func(v []uint64) uint64 { return v[0] * (v[1] << 10) }, k.slot(h.key), hugeSize)
	}
	x.bind("hinv.pagesize", srcStatic, func(int32) (pcpAtom, error) { return u32(x.pageSize), nil })
}

// readMeminfo parses "Name:   value kB" lines.
func (x *Linux) readMeminfo() error {
	b, err := x.readProc("meminfo")
	if err != nil {
		return err
	}
	k := &x.mem
	k.reset()
	for len(b) > 0 {
		var line []byte
		line, b = nextLine(b)
		for i, c := range line {
			if c == ':' {
				k.set(line[:i], parseU64(line[i+1:]))
				break
			}
		}
	}
	return nil
}
