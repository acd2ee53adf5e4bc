package linux

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"unsafe"
)

// pressureData is /proc/pressure/{cpu,memory,io,irq}: per kind, "some"
// and "full" lines of 10 s, 60 s and 300 s averages and a total stall time
// in microseconds.
type pressureData struct {
	kinds [4]struct {
		avg   [2][3]float64
		total [2]uint64
		has   [2]bool
	}
}

var pressureKinds = []string{"cpu", "memory", "io", "irq"}

func (x *Linux) bindPressure() {
	p := &x.pressure
	x.sources[srcPressure] = x.readPressure
	x.indoms[pressureInDom].set(pressureInstances)
	for k, kind := range pressureKinds {
		for l, line := range []string{"some", "full"} {
			k, l := k, l
			base := "kernel.all.pressure." + kind + "." + line
			x.bindKnown(base+".avg", srcPressure, func(inst int32) (pcpAtom, error) {
				d := &p.kinds[k]
				if !d.has[l] {
					return pcpAtom{}, errNoValue
				}
				switch inst {
				case 10:
					return f32(d.avg[l][0]), nil
				case 60:
					return f32(d.avg[l][1]), nil
				case 300:
					return f32(d.avg[l][2]), nil
				}
				return pcpAtom{}, noInst
			})
			x.bindKnown(base+".total", srcPressure, func(int32) (pcpAtom, error) {
				d := &p.kinds[k]
				if !d.has[l] {
					return pcpAtom{}, errNoValue
				}
				return u64(d.total[l]), nil
			})
		}
	}
}

func (x *Linux) readPressure() error {
	p := &x.pressure
	var firstErr error
	for k, kind := range pressureKinds {
		d := &p.kinds[k]
		d.has = [2]bool{}
		b, err := x.readProc("pressure/" + kind)
		if err != nil {
			if firstErr == nil && k == 0 {
				firstErr = err
			}
			continue
		}
		for len(b) > 0 {
			var line []byte
			line, b = nextLine(b)
			which, rest := nextField(line)
			l := 0
			if string(which) == "full" {
				l = 1
			} else if string(which) != "some" {
				continue
			}
			d.has[l] = true
			for {
				var f []byte
				f, rest = nextField(rest)
				if len(f) == 0 {
					break
				}
				switch {
				case hasPrefix(f, "avg10="):
					d.avg[l][0] = parseFloat(f[6:])
				case hasPrefix(f, "avg60="):
					d.avg[l][1] = parseFloat(f[6:])
				case hasPrefix(f, "avg300="):
					d.avg[l][2] = parseFloat(f[7:])
				case hasPrefix(f, "total="):
					d.total[l] = parseU64(f[6:])
				}
			}
		}
	}
	return firstErr
}

// sysKernelData holds single numbers from /proc/sys/kernel.
type sysKernelData struct {
	pidMax, nptys, entropy, poolsize uint64
	has                              [4]bool
}

func (x *Linux) bindSysKernel() {
	s := &x.sysk
	files := []string{"sys/kernel/pid_max", "sys/kernel/pty/nr", "sys/kernel/random/entropy_avail", "sys/kernel/random/poolsize"}
	vals := []*uint64{&s.pidMax, &s.nptys, &s.entropy, &s.poolsize}
	// Without its file, pid_max is the kernel's largest (1<<22) and the
	// others zero, as PCP's agent reports them.
	defaults := []uint64{1 << 22, 0, 0, 0}
	x.sources[srcSysKernel] = func() error {
		for i, f := range files {
			b, err := x.readProc(f)
			*vals[i] = defaults[i]
			if err == nil {
				*vals[i] = parseU64(b)
			}
		}
		return nil
	}
	for i, name := range []string{"kernel.all.pid_max", "kernel.all.nptys", "kernel.all.entropy.avail", "kernel.all.entropy.poolsize"} {
		x.bind(name, srcSysKernel, func(int32) (pcpAtom, error) { return u32(*vals[i]), nil })
	}
}

// unameData is uname(2) and the distribution's name, read once.
type unameData struct {
	sysname, nodename, release, version, machine, distro string
	pmdaUname                                            string
}

func (x *Linux) bindUname() {
	u := &x.uname
	x.sources[srcUname] = func() error {
		var un syscall.Utsname
		if err := syscall.Uname(&un); err != nil {
			return err
		}
		u.sysname = keepString(u.sysname, utsString(un.Sysname[:]))
		u.nodename = keepString(u.nodename, utsString(un.Nodename[:]))
		u.release = keepString(u.release, utsString(un.Release[:]))
		u.version = keepString(u.version, utsString(un.Version[:]))
		u.machine = keepString(u.machine, utsString(un.Machine[:]))
		u.pmdaUname = keepString(u.pmdaUname, []byte(u.sysname+" "+u.nodename+" "+u.release+" "+u.version+" "+u.machine))
		if u.distro == "" {
			u.distro = x.distro()
		}
		return nil
	}
	for name, p := range map[string]*string{
		"kernel.uname.sysname": &u.sysname, "kernel.uname.nodename": &u.nodename,
		"kernel.uname.release": &u.release, "kernel.uname.version": &u.version,
		"kernel.uname.machine": &u.machine, "kernel.uname.distro": &u.distro,
		"hinv.machine": &u.machine,
	} {
		x.bind(name, srcUname, func(int32) (pcpAtom, error) { return str(*p), nil })
	}
}

// utsString is a NUL-terminated uname field, as a view of the array.
func utsString(b []int8) []byte {
	u := unsafe.Slice((*byte)(unsafe.Pointer(&b[0])), len(b))
	for i, c := range u {
		if c == 0 {
			return u[:i]
		}
	}
	return u
}

// distro names the distribution from the first release file found, as
// PCP's agent does: /etc/debian_version (prefixed "Debian "), then the
// Oracle, Fedora, Red Hat, Slackware, SuSE and LSB files; "?" if none.
func (x *Linux) distro() string {
	for i, f := range []string{"debian_version", "oracle-release", "fedora-release",
		"redhat-release", "slackware-version", "SuSE-release", "lsb-release"} {
		b, err := os.ReadFile(x.etc + "/" + f)
		if err != nil {
			continue
		}
		s := string(b)
		if i == 0 {
			s = "Debian " + s
		}
		if i == 6 {
			s = strings.TrimPrefix(strings.TrimPrefix(s, "DISTRIB_ID = "), "DISTRIB_ID=")
		}
		s, _, _ = strings.Cut(s, "\n")
		return s
	}
	return "?"
}

// buddyData is /proc/buddyinfo: free blocks per node, zone and order.
type buddyData struct {
	pages []uint64 // by instance number
	order []uint8
	seen  []bool
	name  []byte
}

func (x *Linux) bindBuddyinfo() {
	bd := &x.buddy
	x.sources[srcBuddyinfo] = x.readBuddyinfo
	get := func(inst int32) (int, bool) {
		return int(inst), inst >= 0 && int(inst) < len(bd.pages) && bd.seen[inst]
	}
	x.bind("mem.buddyinfo.pages", srcBuddyinfo, func(inst int32) (pcpAtom, error) {
		i, ok := get(inst)
		if !ok {
			return pcpAtom{}, noInst
		}
		return u64(bd.pages[i]), nil
	})
	x.bind("mem.buddyinfo.total", srcBuddyinfo, func(inst int32) (pcpAtom, error) {
		i, ok := get(inst)
		if !ok {
			return pcpAtom{}, noInst
		}
		return u64(bd.pages[i] << bd.order[i] * x.pageSize / 1024), nil
	})
}

// readBuddyinfo parses "Node 0, zone   Normal  n0 n1 ..." lines into
// "ZONE::orderK::nodeN" instances.
func (x *Linux) readBuddyinfo() error {
	b, err := x.readProc("buddyinfo")
	if err != nil {
		return err
	}
	bd := &x.buddy
	clear(bd.seen)
	t := &x.indoms[buddyInDom]
	t.begin()
	for len(b) > 0 {
		var line []byte
		line, b = nextLine(b)
		x.fields = fields(line, x.fields)
		f := x.fields
		if len(f) < 5 || string(f[0]) != "Node" || string(f[2]) != "zone" {
			continue
		}
		node := f[1]
		if node[len(node)-1] == ',' {
			node = node[:len(node)-1]
		}
		zone := f[3]
		for k, v := range f[4:] {
			bd.name = append(append(bd.name[:0], zone...), "::order"...)
			bd.name = strconv.AppendInt(bd.name, int64(k), 10)
			bd.name = append(append(bd.name, "::node"...), node...)
			id := t.add(bd.name)
			for int(id) >= len(bd.pages) {
				bd.pages = append(bd.pages, 0)
				bd.order = append(bd.order, 0)
				bd.seen = append(bd.seen, false)
			}
			bd.pages[id], bd.order[id], bd.seen[id] = parseU64(v), uint8(k), true
		}
	}
	t.end()
	return nil
}

// ksmFiles are the /sys/kernel/mm/ksm files behind mem.ksm metrics.
var ksmFiles = []struct{ metric, file string }{
	{"full_scans", "full_scans"}, {"merge_across_nodes", "merge_across_nodes"},
	{"pages_shared", "pages_shared"}, {"pages_sharing", "pages_sharing"},
	{"pages_to_scan", "pages_to_scan"}, {"pages_unshared", "pages_unshared"},
	{"pages_volatile", "pages_volatile"}, {"run_state", "run"},
	{"sleep_time", "sleep_millisecs"},
}

func (x *Linux) bindKSM() {
	k := &x.ksm
	type ksmFile struct {
		path string
		slot int
	}
	var files []ksmFile
	for _, f := range ksmFiles {
		files = append(files, ksmFile{"kernel/mm/ksm/" + f.file, k.slot(f.file)})
	}
	x.sources[srcKSM] = func() error {
		k.reset()
		// A missing file reads as zero, as PCP's agent has it.
		for _, f := range files {
			k.vals[f.slot], k.seen[f.slot] = 0, true
			if b, err := x.readSys(f.path); err == nil {
				k.vals[f.slot] = parseU64(b)
			}
		}
		return nil
	}
	for _, f := range ksmFiles {
		x.bind("mem.ksm."+f.metric, srcKSM, k.getter(k.slot(f.file)))
	}
}

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
