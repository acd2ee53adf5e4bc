package linux

import (
	"github.com/gopcp/gopcp/pmda"
	"strconv"

	"github.com/gopcp/gopcp/pcp"
)

// netIf is one interface: the sixteen /proc/net/dev counters (receive:
// bytes packets errs drop fifo frame compressed multicast; transmit:
// bytes packets errs drop fifo colls carrier compressed) and what sysfs
// or ioctls say of it. The attributes persist between refreshes, as PCP's
// agent keeps them.
type netIf struct {
	name     string
	c        [16]uint64
	present  bool
	mtu      uint32
	speed    uint32 // Mbit/s
	typ      uint32
	duplex   uint32
	up       uint32
	running  uint32
	wireless uint32
	virtual  uint32
}

// What a fetch asks of the interface attributes, as PCP's agent tracks it
// per request.
const (
	needMTU = 1 << iota
	needSpeed
	needDuplex
	needUp
	needRunning
	needWireless
	needType
	needVirtual
)

type netDevData struct {
	ifs   []netIf // by instance number
	need  uint32
	sock  netSocket
	line  []byte
	path  []byte
	attrB fileBuf
}

// netAttr binds an attribute metric (by PMID item) to what it needs
// refreshed.
func netAttr(item uint32) uint32 {
	switch item {
	case 21:
		return needMTU
	case 22, 23:
		return needSpeed
	case 24:
		return needDuplex
	case 25:
		return needUp
	case 26:
		return needRunning
	case 28:
		return needWireless
	case 29:
		return needType
	case 30:
		return needVirtual
	}
	return 0
}

// netCounters are the counter metrics: name and the counters summed.
var netCounters = []struct {
	name string
	idx  []int
}{
	{"in.bytes", []int{0}}, {"in.packets", []int{1}}, {"in.errors", []int{2}}, {"in.drops", []int{3}},
	{"in.fifo", []int{4}}, {"in.frame", []int{5}}, {"in.compressed", []int{6}}, {"in.mcasts", []int{7}},
	{"out.bytes", []int{8}}, {"out.packets", []int{9}}, {"out.errors", []int{10}}, {"out.drops", []int{11}},
	{"out.fifo", []int{12}}, {"collisions", []int{13}}, {"out.carrier", []int{14}}, {"out.compressed", []int{15}},
	{"total.bytes", []int{0, 8}}, {"total.packets", []int{1, 9}}, {"total.errors", []int{2, 10}},
	{"total.drops", []int{3, 11}}, {"total.mcasts", []int{7}},
}

func (x *Linux) bindNetDev() {
	nd := &x.netdev
	x.sources[srcNetDev] = x.readNetDev
	get := func(inst int32) *netIf {
		if inst < 0 || int(inst) >= len(nd.ifs) || !nd.ifs[inst].present {
			return nil
		}
		return &nd.ifs[inst]
	}
	for _, c := range netCounters {
		idx := c.idx
		x.bind("network.interface."+c.name, srcNetDev, func(inst int32) (pcpAtom, error) {
			n := get(inst)
			if n == nil {
				return pcpAtom{}, noInst
			}
			var v uint64
			for _, i := range idx {
				v += n.c[i]
			}
			return u64(v), nil
		})
	}
	attr := func(name string, f func(n *netIf) (pcpAtom, bool)) {
		x.bind("network.interface."+name, srcNetDev, func(inst int32) (pcpAtom, error) {
			n := get(inst)
			if n == nil {
				return pcpAtom{}, noInst
			}
			a, ok := f(n)
			if !ok {
				return pcpAtom{}, pmda.ErrNoValue
			}
			return a, nil
		})
	}
	nonzero := func(v uint32) (pcpAtom, bool) { return u32(uint64(v)), v != 0 }
	always := func(v uint32) (pcpAtom, bool) { return u32(uint64(v)), true }
	attr("mtu", func(n *netIf) (pcpAtom, bool) { return nonzero(n.mtu) })
	attr("speed", func(n *netIf) (pcpAtom, bool) {
		f := float32(n.speed) * 1000000 / 8 / 1024 / 1024
		return pcpAtom{F: f, D: float64(f)}, n.speed != 0
	})
	attr("baudrate", func(n *netIf) (pcpAtom, bool) { return u64(uint64(n.speed) * 1000000 / 8), n.speed != 0 })
	attr("duplex", func(n *netIf) (pcpAtom, bool) { return nonzero(n.duplex) })
	attr("up", func(n *netIf) (pcpAtom, bool) { return always(n.up) })
	attr("running", func(n *netIf) (pcpAtom, bool) { return always(n.running) })
	attr("wireless", func(n *netIf) (pcpAtom, bool) { return always(n.wireless) })
	attr("type", func(n *netIf) (pcpAtom, bool) { return always(n.typ) })
	attr("virtual", func(n *netIf) (pcpAtom, bool) { return always(n.virtual) })
	x.bind("hinv.ninterface", srcNetDev, func(int32) (pcpAtom, error) {
		return u32(uint64(len(x.indoms[netDevInDom].list()))), nil
	})
}

// noteNetNeeds records which interface attributes a request asks for.
func (x *Linux) noteNetNeeds(pmids []pcp.PMID) {
	x.netdev.need = 0
	for _, id := range pmids {
		if id.Cluster() == 3 {
			x.netdev.need |= netAttr(id.Item())
		}
	}
}

// readNetDev parses /proc/net/dev, lists the interface domain and
// refreshes the attributes the request needs: first from sysfs, interface
// by interface, stopping at the first that sysfs cannot answer, then
// through ioctls for all, which is the order PCP's agent uses.
func (x *Linux) readNetDev() error {
	b, err := x.readProc("net/dev")
	if err != nil {
		return err
	}
	nd := &x.netdev
	for i := range nd.ifs {
		nd.ifs[i].present = false
	}
	t := &x.indoms[netDevInDom]
	t.begin()
	for len(b) > 0 {
		var line []byte
		line, b = nextLine(b)
		colon := -1
		for i, c := range line {
			if c == ':' {
				colon = i
				break
			}
		}
		if colon < 0 {
			continue
		}
		name := trimSpace(line[:colon])
		id := t.add(name)
		for int(id) >= len(nd.ifs) {
			nd.ifs = append(nd.ifs, netIf{})
		}
		n := &nd.ifs[id]
		n.present = true
		n.name = keepString(n.name, name)
		rest := line[colon+1:]
		for i := range n.c {
			var f []byte
			f, rest = nextField(rest)
			n.c[i] = parseU64(f)
		}
	}
	t.end()
	if nd.need != 0 {
		x.netSysfs()
		x.netIoctl()
	}
	return nil
}

// netAttr reads /sys/class/net/NAME/rel's first word.
func (x *Linux) netAttr(name, rel string) ([]byte, bool) {
	nd := &x.netdev
	nd.path = append(append(append(append(nd.path[:0], x.sys...), "/class/net/"...), name...), '/')
	nd.path = append(nd.path, rel...)
	b, err := nd.attrB.readBytes(nd.path)
	if err != nil {
		return nil, false
	}
	f, _ := nextField(b)
	return f, len(f) > 0
}

func (x *Linux) netSysfs() {
	nd := &x.netdev
	need := nd.need
	for _, in := range x.indoms[netDevInDom].list() {
		n := &nd.ifs[in.ID]
		if need&needSpeed != 0 {
			v, ok := x.netAttr(n.name, "speed")
			if !ok {
				return
			}
			n.speed = uint32(parseI64(v))
		}
		if need&needMTU != 0 {
			v, ok := x.netAttr(n.name, "mtu")
			if !ok {
				return
			}
			n.mtu = uint32(parseI64(v))
		}
		if need&(needUp|needRunning) != 0 {
			v, ok := x.netAttr(n.name, "flags")
			if !ok {
				return
			}
			fl := parseHex(v)
			n.up = uint32(fl & syscallIFFUp)
			n.running = uint32(fl&syscallIFFRunning) >> 6
		}
		if need&needDuplex != 0 {
			v, ok := x.netAttr(n.name, "duplex")
			switch {
			case !ok:
				if !x.pc.exists(x.sys, "/class/net/", n.name) {
					return
				}
				n.duplex = 0
			case string(v) == "half":
				n.duplex = 1
			case string(v) == "full":
				n.duplex = 2
			default:
				n.duplex = 0
			}
		}
		if need&needWireless != 0 {
			n.wireless = 0
			if x.pc.exists(x.sys, "/class/net/", n.name, "/wireless") {
				n.wireless = 1
			}
		}
		if need&needType != 0 {
			v, ok := x.netAttr(n.name, "type")
			if !ok {
				return
			}
			n.typ = uint32(parseI64(v))
		}
		if need&needVirtual != 0 {
			n.virtual = 0
			if x.pc.exists(x.sys, "/devices/virtual/net/", n.name) {
				n.virtual = 1
			}
		}
	}
}

const (
	syscallIFFUp      = 0x1
	syscallIFFRunning = 0x40
)

func (x *Linux) netIoctl() {
	nd := &x.netdev
	need := nd.need
	for _, in := range x.indoms[netDevInDom].list() {
		n := &nd.ifs[in.ID]
		if need&needMTU != 0 {
			if v, ok := nd.sock.mtu(n.name); ok {
				n.mtu = v
			}
		}
		if need&(needUp|needRunning) != 0 {
			if fl, ok := nd.sock.flags(n.name); ok {
				n.up = uint32(fl & syscallIFFUp)
				n.running = uint32(fl&syscallIFFRunning) >> 6
			}
		}
		if need&(needType|needSpeed|needDuplex|needWireless) != 0 {
			if speed, duplex, ok := nd.sock.ethtool(n.name); ok {
				n.typ, n.speed, n.duplex, n.wireless = 1, speed, uint32(duplex+1)&3, 0
			} else if rate, ok := nd.sock.wirelessRate(n.name); ok {
				n.typ, n.speed, n.duplex, n.wireless = 0, (rate+500000)/1000000, 1, 1
			}
		}
	}
}

// netAddr is one entry of the address domain.
type netAddr struct {
	inet, ipv6, hw string
	// The addresses as this listing met them: an interface with several
	// addresses of a family shows the last, and only that one becomes
	// a string, and only when it differs from the last listing's.
	inetText, ipv6Text []byte
	scope              uint32
	hasInet            bool
	hasIPv6            bool
	hasHW              bool
}

type netAddrData struct {
	addrs []netAddr // by instance number
	reqs  []ifreq
	buf   []byte
}

// ipv6Scope names a scope as PCP does.
func ipv6Scope(s uint32) string {
	switch s {
	case 0:
		return "Global"
	case 0x20:
		return "Link"
	case 0x40:
		return "Site"
	case 0x80:
		return "Compat"
	case 0x10:
		return "Host"
	}
	return "Unknown"
}

func (x *Linux) bindNetAddr() {
	na := &x.netaddr
	x.sources[srcNetAddr] = x.readNetAddr
	get := func(inst int32) *netAddr {
		if inst < 0 || int(inst) >= len(na.addrs) {
			return nil
		}
		return &na.addrs[inst]
	}
	addr := func(name string, f func(a *netAddr) (string, bool)) {
		x.bind("network.interface."+name, srcNetAddr, func(inst int32) (pcpAtom, error) {
			a := get(inst)
			if a == nil {
				return pcpAtom{}, noInst
			}
			s, ok := f(a)
			if !ok {
				return pcpAtom{}, pmda.ErrNoValue
			}
			return str(s), nil
		})
	}
	addr("inet_addr", func(a *netAddr) (string, bool) { return a.inet, a.hasInet })
	addr("ipv6_addr", func(a *netAddr) (string, bool) { return a.ipv6, a.hasIPv6 })
	addr("ipv6_scope", func(a *netAddr) (string, bool) { return ipv6Scope(a.scope), a.hasIPv6 })
	addr("hw_addr", func(a *netAddr) (string, bool) { return a.hw, a.hasHW })
}

// readNetAddr lists every interface with an address: hardware addresses
// from sysfs, IPv4 from SIOCGIFCONF (aliases included), IPv6 from
// /proc/net/if_inet6 (the last address listed for an interface).
func (x *Linux) readNetAddr() error {
	na := &x.netaddr
	t := &x.indoms[netAddrInDom]
	t.begin()
	entry := func(name []byte) *netAddr {
		for _, in := range t.scratch {
			if in.Name == string(name) {
				return &na.addrs[in.ID]
			}
		}
		id := t.add(name)
		for int(id) >= len(na.addrs) {
			na.addrs = append(na.addrs, netAddr{})
		}
		a := &na.addrs[id]
		a.hasInet, a.hasIPv6, a.hasHW = false, false, false
		return a
	}
	// Hardware addresses of the interfaces in /sys/class/net, in the
	// directory's own order, which is the order PCP's agent meets them.
	if x.dir.Read(false, x.sys, "/class/net") == nil {
		for i := range x.dir.Len() {
			name := x.dir.At(i)
			nd := &x.netdev
			nd.path = append(append(append(append(nd.path[:0], x.sys...), "/class/net/"...), name...), "/address"...)
			b, err := x.fb.readBytes(nd.path)
			if err != nil {
				continue
			}
			b = trimSpace(b)
			if len(b) == 0 {
				continue
			}
			a := entry(name)
			a.hw, a.hasHW = keepString(a.hw, b), true
		}
	}
	na.reqs = x.netdev.sock.ipv4Addrs(na.reqs, func(name []byte, ip [4]byte) {
		a := entry(name)
		na.buf = na.buf[:0]
		for i, o := range ip {
			if i > 0 {
				na.buf = append(na.buf, '.')
			}
			na.buf = strconv.AppendUint(na.buf, uint64(o), 10)
		}
		a.inetText, a.hasInet = append(a.inetText[:0], na.buf...), true
	})
	if b, err := x.readProc("net/if_inet6"); err == nil {
		for len(b) > 0 {
			var line []byte
			line, b = nextLine(b)
			x.fields = fields(line, x.fields)
			f := x.fields
			if len(f) < 6 || len(f[0]) != 32 {
				continue
			}
			var ip [16]byte
			for i := range ip {
				ip[i] = byte(parseHex(f[0][2*i : 2*i+2]))
			}
			a := entry(f[5])
			na.buf = appendIPv6(na.buf[:0], ip)
			na.buf = append(na.buf, '/')
			na.buf = strconv.AppendUint(na.buf, parseHex(f[2]), 10)
			a.ipv6Text, a.hasIPv6 = append(a.ipv6Text[:0], na.buf...), true
			a.scope = uint32(parseHex(f[3]))
		}
	}
	for _, in := range t.scratch {
		a := &na.addrs[in.ID]
		if a.hasInet {
			a.inet = keepString(a.inet, a.inetText)
		}
		if a.hasIPv6 {
			a.ipv6 = keepString(a.ipv6, a.ipv6Text)
		}
	}
	t.end()
	return nil
}
