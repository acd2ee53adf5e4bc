package linux

import (
	"strings"

	"github.com/gopcp/gopcp/pmda"
)

// Labels as PCP's agent gives them: per instance domain a device type and
// a description, per CPU-time metric the device type, and per instance
// what it is (a CPU number, a device or interface name, a NUMA node, a
// zone, an interrupt and its text).

// indomLabels is the instance domain label sets. Made when an agent is:
// every package-level value that needs code at init (a map, a call)
// costs every tool that links the agent for -L the pages of that code
// (a 64 KB fault-around window of the binary per package).
func indomLabels() map[int][]pmda.Label {
	return map[int][]pmda.Label{
		cpuInDom:        dev("cpu", "per cpu"),
		mdInDom:         dev("block", "per md device"),
		dmInDom:         dev("block", "per dm device"),
		diskInDom:       dev("block", "per disk"),
		scsiInDom:       dev("block", "per disk"),
		partitionsInDom: dev("block", "per partition"),
		nodeInDom:       dev("numa_node", "per numa_node"),
		netDevInDom:     dev("interface", "per interface"),
		netAddrInDom:    dev("interface", "per interface"),
		swapdevInDom:    dev([]string{"block", "memory"}, "per swap device"),
		slabInDom:       dev("memory", "per slab"),
		zoneInDom:       dev([]string{"memory", "numa_node"}, "per zone per numa_node"),
		buddyInDom:      dev([]string{"memory", "numa_node"}, "per buddy per numa_node"),
		interruptInDom:  dev("irq", "per irq"),
		intrCPUInDom:    dev([]string{"irq", "cpu"}, "per cpu, per irq"),
		softirqInDom:    {{Name: "indom_name", Value: "per softirq"}},
		softirqCPUInDom: dev("cpu", "per cpu, per softirq"),
	}
}

func dev(typ any, name string) []pmda.Label {
	return []pmda.Label{{Name: "device_type", Value: typ}, {Name: "indom_name", Value: name}}
}

// itemLabels gives a metric's own labels.
func itemLabels(name string) []pmda.Label {
	switch {
	case strings.HasPrefix(name, "kernel.all.cpu."):
		return []pmda.Label{{Name: "device_type", Value: "cpu"}}
	case strings.HasPrefix(name, "kernel.pernode.cpu."):
		return []pmda.Label{{Name: "device_type", Value: []string{"numa_node", "cpu"}}}
	}
	return nil
}

// setInstanceLabels gives the instance domains whose instances carry
// labels their labelling function; it runs when a domain's membership
// changes.
func (x *Linux) setInstanceLabels() {
	num := func(s string, prefix string) uint64 { return parseU64([]byte(strings.TrimPrefix(s, prefix))) }
	x.indoms[cpuInDom].labels = func(in pmda.Instance) []pmda.Label {
		return []pmda.Label{{Name: "cpu", Value: in.ID}}
	}
	for _, s := range []int{diskInDom, dmInDom, mdInDom, partitionsInDom} {
		x.indoms[s].labels = func(in pmda.Instance) []pmda.Label {
			return []pmda.Label{{Name: "device_name", Value: in.Name}}
		}
	}
	x.indoms[netDevInDom].labels = func(in pmda.Instance) []pmda.Label {
		return []pmda.Label{{Name: "interface", Value: in.Name}}
	}
	x.indoms[nodeInDom].labels = func(in pmda.Instance) []pmda.Label {
		return []pmda.Label{{Name: "numa_node", Value: in.ID}}
	}
	// "ZONE::orderK::nodeN"
	x.indoms[buddyInDom].labels = func(in pmda.Instance) []pmda.Label {
		p := strings.Split(in.Name, "::")
		if len(p) != 3 {
			return nil
		}
		return []pmda.Label{{Name: "numa_node", Value: num(p[2], "node")},
			{Name: "zone", Value: p[0]}, {Name: "order", Value: num(p[1], "order")}}
	}
	// "nodeN" or "ZONE::nodeN"
	x.indoms[zoneInDom].labels = func(in pmda.Instance) []pmda.Label {
		zone, node, ok := strings.Cut(in.Name, "::")
		if !ok {
			return []pmda.Label{{Name: "numa_node", Value: num(in.Name, "node")}}
		}
		return []pmda.Label{{Name: "numa_node", Value: num(node, "node")}, {Name: "zone", Value: zone}}
	}
	// "ZONE::nodeN::lowmem_reservedK"
	x.indoms[zoneProtInDom].labels = func(in pmda.Instance) []pmda.Label {
		p := strings.Split(in.Name, "::")
		if len(p) != 3 {
			return nil
		}
		return []pmda.Label{{Name: "numa_node", Value: num(p[1], "node")}, {Name: "zone", Value: p[0]},
			{Name: "lowmem_reserved", Value: num(p[2], "lowmem_reserved")}}
	}
	x.indoms[interruptInDom].labels = func(in pmda.Instance) []pmda.Label {
		return []pmda.Label{{Name: "irq", Value: in.Name}, {Name: "irqtext", Value: x.interrupts.text[in.Name]}}
	}
	// "LINE::cpuN"
	x.indoms[intrCPUInDom].labels = func(in pmda.Instance) []pmda.Label {
		line, cpu, _ := strings.Cut(in.Name, "::")
		return []pmda.Label{{Name: "cpu", Value: num(cpu, "cpu")}, {Name: "irq", Value: line},
			{Name: "irqtext", Value: x.interrupts.text[line]}}
	}
	x.indoms[softirqCPUInDom].labels = func(in pmda.Instance) []pmda.Label {
		kind, cpu, _ := strings.Cut(in.Name, "::")
		return []pmda.Label{{Name: "cpu", Value: num(cpu, "cpu")}, {Name: "softirq", Value: kind}}
	}
}
