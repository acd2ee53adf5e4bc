package linux

import (
	"github.com/gopcp/gopcp/pmda"
	"strconv"
)

// numaMeminfoFields are the /sys/devices/system/node/nodeN/meminfo labels
// behind mem.numa.util metrics. A label matches anywhere in a line and a
// later line that contains it wins, which is how PCP's table scan reads
// the file (so "Mapped:" takes FilePmdMapped's figure where the kernel
// prints that line after Mapped).
var numaMeminfoFields = []struct{ metric, label string }{
	{"total", "MemTotal:"}, {"free", "MemFree:"}, {"used", "MemUsed:"},
	{"active", "Active:"}, {"inactive", "Inactive:"},
	{"active_anon", "Active(anon):"}, {"inactive_anon", "Inactive(anon):"},
	{"active_file", "Active(file):"}, {"inactive_file", "Inactive(file):"},
	{"highTotal", "HighTotal:"}, {"highFree", "HighFree:"},
	{"lowTotal", "LowTotal:"}, {"lowFree", "LowFree:"},
	{"unevictable", "Unevictable:"}, {"mlocked", "Mlocked:"},
	{"dirty", "Dirty:"}, {"writeback", "Writeback:"}, {"filePages", "FilePages:"},
	{"mapped", "Mapped:"}, {"anonpages", "AnonPages:"}, {"shmem", "Shmem:"},
	{"kernelStack", "KernelStack:"}, {"pageTables", "PageTables:"},
	{"NFS_Unstable", "NFS_Unstable:"}, {"bounce", "Bounce:"},
	{"writebackTmp", "WritebackTmp:"}, {"slab", "Slab:"},
	{"slabReclaimable", "SReclaimable:"}, {"slabUnreclaimable", "SUnreclaim:"},
	{"hugepagesTotal", "HugePages_Total:"}, {"hugepagesFree", "HugePages_Free:"},
	{"hugepagesSurp", "HugePages_Surp:"},
}

var numastatFields = []struct{ metric, label string }{
	{"hit", "numa_hit"}, {"miss", "numa_miss"}, {"foreign", "numa_foreign"},
	{"interleave_hit", "interleave_hit"}, {"local_node", "local_node"}, {"other_node", "other_node"},
}

type numaData struct {
	mem    [][]uint64 // by node: by numaMeminfoFields index
	memOK  [][]bool
	stat   [][]uint64 // by node: by numastatFields index
	statOK [][]bool
	path   []byte
}

func (x *Linux) bindNUMA() {
	nd := &x.numa
	x.sources[srcNUMA] = x.readNUMA
	ok := func(inst int32, tab [][]bool, i int) bool {
		return inst >= 0 && int(inst) < len(tab) && tab[inst][i]
	}
	for i, f := range numaMeminfoFields {
		x.bind("mem.numa.util."+f.metric, srcNUMA, func(inst int32) (pcpAtom, error) {
			if !ok(inst, nd.memOK, i) {
				return pcpAtom{}, pmda.ErrNoValue
			}
			return u64(nd.mem[inst][i]), nil
		})
	}
	hugeSize := x.mem.slot("Hugepagesize")
	for i, f := range numaMeminfoFields {
		if f.metric != "hugepagesTotal" && f.metric != "hugepagesFree" && f.metric != "hugepagesSurp" {
			continue
		}
		x.bind("mem.numa.util."+f.metric+"Bytes", srcNUMA, func(inst int32) (pcpAtom, error) {
			size, have := x.mem.value(hugeSize)
			if !have || !ok(inst, nd.memOK, i) {
				return pcpAtom{}, pmda.ErrNoValue
			}
			return u64(nd.mem[inst][i] * (size << 10)), nil
		})
	}
	for i, f := range numastatFields {
		x.bind("mem.numa.alloc."+f.metric, srcNUMA, func(inst int32) (pcpAtom, error) {
			if !ok(inst, nd.statOK, i) {
				return pcpAtom{}, pmda.ErrNoValue
			}
			return u64(nd.stat[inst][i]), nil
		})
	}
}

// readNUMA reads each node's meminfo and numastat (the refresh reads
// /proc/meminfo first, for the huge page size).
func (x *Linux) readNUMA() error {
	nd := &x.numa
	x.bandwidth.refresh()
	for _, in := range x.indoms[nodeInDom].list() {
		n := int(in.ID)
		for len(nd.mem) <= n {
			nd.mem = append(nd.mem, make([]uint64, len(numaMeminfoFields)))
			nd.memOK = append(nd.memOK, make([]bool, len(numaMeminfoFields)))
			nd.stat = append(nd.stat, make([]uint64, len(numastatFields)))
			nd.statOK = append(nd.statOK, make([]bool, len(numastatFields)))
		}
		x.scanTable(x.nodeFile(n, "meminfo"), numaMeminfoFields, nd.mem[n], nd.memOK[n])
		x.scanTable(x.nodeFile(n, "numastat"), numastatFields, nd.stat[n], nd.statOK[n])
	}
	return nil
}

func (x *Linux) nodeFile(n int, name string) []byte {
	nd := &x.numa
	nd.path = append(append(nd.path[:0], x.sys...), "/devices/system/node/node"...)
	nd.path = strconv.AppendInt(nd.path, int64(n), 10)
	nd.path = append(append(nd.path, '/'), name...)
	return nd.path
}

// scanTable reads path, finding each label anywhere in a line and taking
// the first number after it.
func (x *Linux) scanTable(path []byte, tab []struct{ metric, label string }, vals []uint64, ok []bool) {
	clear(ok)
	b, err := x.fb.readBytes(path)
	if err != nil {
		return
	}
	for len(b) > 0 {
		var line []byte
		line, b = nextLine(b)
		for i, f := range tab {
			p := indexString(line, f.label)
			if p < 0 {
				continue
			}
			rest := line[p+len(f.label):]
			d := 0
			for d < len(rest) && !isDigit(rest[d]) {
				d++
			}
			if d == len(rest) {
				continue
			}
			vals[i], ok[i] = parseU64(rest[d:]), true
			break
		}
	}
}
