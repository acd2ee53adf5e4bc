package linux

import (
	"os"
	"strconv"
	"strings"
)

// nodeData maps CPUs to NUMA nodes, from /sys/devices/system/node.
type nodeData struct {
	cpuNode []int32 // by CPU number; -1 when unknown
	online  []uint64
	listed  bool
	single  bool // no NUMA information: every CPU is on node 0
}

// nodeOf is cpu's node, -1 when unknown.
func (n *nodeData) nodeOf(cpu int) int32 {
	if n.single && cpu >= 0 {
		return 0
	}
	if cpu < 0 || cpu >= len(n.cpuNode) {
		return -1
	}
	return n.cpuNode[cpu]
}

func (x *Linux) bindNodes() {
	nd := &x.nodes
	x.sources[srcNodes] = x.readNodes
	x.bind("hinv.nnode", srcNodes, func(int32) (pcpAtom, error) {
		return u32(uint64(len(x.indoms[nodeInDom].list()))), nil
	})
	x.bind("hinv.node.online", srcNodes, func(inst int32) (pcpAtom, error) {
		if inst < 0 || int(inst) >= len(nd.online) {
			return pcpAtom{}, noInst
		}
		return u32(nd.online[inst]), nil
	})
	x.bind("hinv.cpu.online", srcNodes, func(inst int32) (pcpAtom, error) {
		if !x.stat.has(inst) {
			return pcpAtom{}, noInst
		}
		return u32(x.sysOnline("cpu", int(inst))), nil
	})
}

// sysOnline reads /sys/devices/system/KIND/KINDN/online; a CPU or node
// without the file (CPU 0 usually) is online.
func (x *Linux) sysOnline(kind string, n int) uint64 {
	p := append(append(x.onlinePath[:0], x.sys...), "/devices/system/"...)
	p = append(append(p, kind...), '/')
	p = strconv.AppendInt(append(p, kind...), int64(n), 10)
	x.onlinePath = append(p, "/online"...)
	b, err := x.fb.readBytes(x.onlinePath)
	if err != nil {
		return 1
	}
	return parseU64(b)
}

// readNodes lists the NUMA nodes and which CPUs each holds, once, as
// PCP's agent does at start; later refreshes update whether each node is
// online.
func (x *Linux) readNodes() error {
	nd := &x.nodes
	t := &x.indoms[nodeInDom]
	if nd.listed {
		if nd.single {
			return nil
		}
		for _, in := range t.list() {
			nd.online[in.ID] = x.sysOnline("node", int(in.ID))
		}
		return nil
	}
	nd.listed = true
	t.begin()
	for i := range nd.cpuNode {
		nd.cpuNode[i] = -1
	}
	ents, err := os.ReadDir(x.sys + "/devices/system/node")
	if err != nil {
		// Without NUMA in sysfs, all CPUs make one node, node0, as PCP's
		// agent has it.
		t.addID([]byte("node0"), 0)
		nd.online = append(nd.online[:0], 1)
		nd.single = true
		t.end()
		return nil
	}
	for _, e := range ents {
		name := e.Name()
		if !strings.HasPrefix(name, "node") {
			continue
		}
		n, err := strconv.Atoi(name[4:])
		if err != nil {
			continue
		}
		t.addID([]byte(name), int32(n))
		for len(nd.online) <= n {
			nd.online = append(nd.online, 0)
		}
		nd.online[n] = x.sysOnline("node", n)
		// The node's CPUs are its cpuN entries, as PCP's agent finds them.
		cpus, err := os.ReadDir(x.sys + "/devices/system/node/" + name)
		if err != nil {
			continue
		}
		for _, e := range cpus {
			c, err := strconv.Atoi(strings.TrimPrefix(e.Name(), "cpu"))
			if !strings.HasPrefix(e.Name(), "cpu") || err != nil || c < 0 || c > maxCPU {
				continue
			}
			for len(nd.cpuNode) <= c {
				nd.cpuNode = append(nd.cpuNode, -1)
			}
			nd.cpuNode[c] = int32(n)
		}
	}
	t.end()
	return nil
}
