package linux

import (
	"strconv"
	"syscall"

	"github.com/gopcp/gopcp/pmda"
)

// Socket tables (/proc/net/{tcp,tcp6,udp,udp6,raw,raw6,unix}), file locks
// (/proc/locks), ICMP message types (IcmpMsg of /proc/net/snmp), tmpfs
// mounts and the kernel's uevent sequence number.

// tcpStates are the TCP states in the kernel's numbering (1..11).
var tcpStates = []string{"established", "syn_sent", "syn_recv", "fin_wait1", "fin_wait2",
	"time_wait", "close", "close_wait", "last_ack", "listen", "closing"}

type connData struct {
	tcp, tcp6 [12]uint64
	udp, udp6 [2]uint64 // established, listen
	raw, raw6 uint64
	unix      [4]uint64 // datagram count, stream established, listen, count
	ok        map[string]bool
	locks     [3][3]uint64 // posix, flock, lease × read, write, count
	locksOK   bool
	icmpIn    [256]uint64
	icmpOut   [256]uint64
	icmpInOK  [256]bool
	icmpOutOK [256]bool
	uevent    uint64
	ueventOK  bool
	tmpfs     []mount
	// diag counts TCP and UDP sockets when the agent reads this host's
	// own /proc (useDiag), the files being the fallback.
	diag    sockDiag
	useDiag bool
	counts  diagCounts
}

const (
	icmpmsgInDom = 23
	tmpfsInDom   = 18
)

func (x *Linux) bindConns() {
	c := &x.conns
	c.ok = map[string]bool{}
	// One source per kind of socket: a fetch of one kind reads only its
	// tables, the TCP one costing the kernel a walk of its whole
	// connection hash.
	x.sources[srcConns] = x.readTCPConns
	x.sources[srcUDPConns] = x.readUDPConns
	x.sources[srcRawConns] = x.readRawConns
	x.sources[srcUnixConns] = x.readUnixConns
	// A missing socket table counts no sockets, as PCP's agent has it.
	have := func(string) bool { return true }
	for i, s := range tcpStates {
		x.bind("network.tcpconn."+s, srcConns, func(int32) (pcpAtom, error) {
			if !have("net/tcp") {
				return pcpAtom{}, pmda.ErrNoValue
			}
			return u32(c.tcp[i+1]), nil
		})
		x.bind("network.tcpconn6."+s, srcConns, func(int32) (pcpAtom, error) {
			if !have("net/tcp6") {
				return pcpAtom{}, pmda.ErrNoValue
			}
			return u32(c.tcp6[i+1]), nil
		})
	}
	for i, s := range []string{"established", "listen"} {
		x.bind("network.udpconn."+s, srcUDPConns, func(int32) (pcpAtom, error) {
			if !have("net/udp") {
				return pcpAtom{}, pmda.ErrNoValue
			}
			return u32(c.udp[i]), nil
		})
		x.bind("network.udpconn6."+s, srcUDPConns, func(int32) (pcpAtom, error) {
			if !have("net/udp6") {
				return pcpAtom{}, pmda.ErrNoValue
			}
			return u32(c.udp6[i]), nil
		})
	}
	x.bind("network.rawconn.count", srcRawConns, func(int32) (pcpAtom, error) {
		if !have("net/raw") {
			return pcpAtom{}, pmda.ErrNoValue
		}
		return u32(c.raw), nil
	})
	x.bind("network.rawconn6.count", srcRawConns, func(int32) (pcpAtom, error) {
		if !have("net/raw6") {
			return pcpAtom{}, pmda.ErrNoValue
		}
		return u32(c.raw6), nil
	})
	for i, s := range []string{"datagram.count", "stream.established", "stream.listen", "stream.count"} {
		x.bind("network.unix."+s, srcUnixConns, func(int32) (pcpAtom, error) {
			if !have("net/unix") {
				return pcpAtom{}, pmda.ErrNoValue
			}
			return u32(c.unix[i]), nil
		})
	}
	for k, kind := range []string{"posix", "flock", "lease"} {
		for a, acc := range []string{"read", "write", "count"} {
			// Without /proc/locks there are no locks to count.
			x.bind("vfs.locks."+kind+"."+acc, srcLocks, func(int32) (pcpAtom, error) {
				return u32(c.locks[k][a]), nil
			})
		}
	}
	x.sources[srcLocks] = x.readLocks

	// ICMP message types: 256 instances Type0..Type255, values for the
	// types the kernel lists.
	ins := make([]pmda.Instance, 256)
	for i := range ins {
		ins[i] = pmda.Instance{ID: int32(i), Name: "Type" + strconv.Itoa(i)}
	}
	x.indoms[icmpmsgInDom].set(ins)
	for _, dir := range []struct {
		name string
		vals *[256]uint64
		ok   *[256]bool
	}{{"intype", &c.icmpIn, &c.icmpInOK}, {"outtype", &c.icmpOut, &c.icmpOutOK}} {
		x.bind("network.icmpmsg."+dir.name, srcSnmp, func(inst int32) (pcpAtom, error) {
			if inst < 0 || inst > 255 {
				return pcpAtom{}, noInst
			}
			if !dir.ok[inst] {
				return pcpAtom{}, pmda.ErrNoValue
			}
			return u64(dir.vals[inst]), nil
		})
	}

	x.bind("sysfs.kernel.uevent_seqnum", srcUevent, func(int32) (pcpAtom, error) {
		if !c.ueventOK {
			return pcpAtom{}, pmda.ErrNoValue
		}
		return u64(c.uevent), nil
	})
	x.sources[srcUevent] = func() error {
		b, err := x.readSys("kernel/uevent_seqnum")
		c.ueventOK = err == nil
		if err == nil {
			c.uevent = parseU64(b)
		}
		return nil
	}
	x.bindTmpfs()
}

// icmpmsg records an IcmpMsg field such as InType3 or OutType0.
func (c *connData) icmpmsg(name []byte, v uint64) {
	var vals *[256]uint64
	var ok *[256]bool
	switch {
	case hasPrefix(name, "InType"):
		vals, ok, name = &c.icmpIn, &c.icmpInOK, name[len("InType"):]
	case hasPrefix(name, "OutType"):
		vals, ok, name = &c.icmpOut, &c.icmpOutOK, name[len("OutType"):]
	default:
		return
	}
	if n := parseU64(name); n < 256 && len(name) > 0 {
		vals[n], ok[n] = v, true
	}
}

// readTCPConns counts TCP sockets by state.
func (x *Linux) readTCPConns() error {
	if !x.conns.useDiag || !x.diagTCP() {
		x.fileTCP()
	}
	return nil
}

// readUDPConns counts UDP sockets, connected and not.
func (x *Linux) readUDPConns() error {
	if !x.conns.useDiag || !x.diagUDP() {
		x.fileUDP()
	}
	return nil
}

// readRawConns counts raw sockets.
func (x *Linux) readRawConns() error {
	c := &x.conns
	c.raw, c.raw6 = 0, 0
	x.countLines("net/raw", func([][]byte) { c.raw++ })
	x.countLines("net/raw6", func([][]byte) { c.raw6++ })
	return nil
}

// readUnixConns counts Unix domain sockets by type and state.
func (x *Linux) readUnixConns() error {
	c := &x.conns
	c.unix = [4]uint64{}
	x.countLines("net/unix", func(f [][]byte) {
		if len(f) < 6 {
			return
		}
		typ, st := parseHex(f[4]), parseHex(f[5])
		switch typ {
		case 2: // SOCK_DGRAM
			c.unix[0]++
		case 1: // SOCK_STREAM
			// The kernel's socket states: 1 unconnected (a listener's), 3
			// connected.
			switch st {
			case 1:
				c.unix[2]++
			case 3:
				c.unix[1]++
			}
			c.unix[3]++
		}
	})
	return nil
}

// countLines calls f with the fields of each line of a /proc/net socket
// table after its heading.
func (x *Linux) countLines(file string, f func(fields [][]byte)) {
	b, err := x.readProc(file)
	x.conns.ok[file] = err == nil
	if err != nil {
		return
	}
	_, b = nextLine(b)
	for len(b) > 0 {
		var line []byte
		line, b = nextLine(b)
		x.fields = fields(line, x.fields)
		if len(x.fields) > 0 {
			f(x.fields)
		}
	}
}

// fileTCP counts TCP sockets by state from /proc/net.
func (x *Linux) fileTCP() {
	c := &x.conns
	for _, t := range []struct {
		file   string
		states *[12]uint64
	}{{"net/tcp", &c.tcp}, {"net/tcp6", &c.tcp6}} {
		*t.states = [12]uint64{}
		x.countLines(t.file, func(f [][]byte) {
			if len(f) > 3 {
				if s := parseHex(f[3]); s < 12 {
					t.states[s]++
				}
			}
		})
	}
}

// fileUDP counts UDP sockets from /proc/net.
func (x *Linux) fileUDP() {
	c := &x.conns
	for _, u := range []struct {
		file string
		n    *[2]uint64
	}{{"net/udp", &c.udp}, {"net/udp6", &c.udp6}} {
		*u.n = [2]uint64{}
		x.countLines(u.file, func(f [][]byte) {
			if len(f) > 3 {
				switch parseHex(f[3]) {
				case 1:
					u.n[0]++
				case 7:
					u.n[1]++
				}
			}
		})
	}
}

// diagTCP counts TCP sockets by state through socket diagnostics, and
// says whether it could.
func (x *Linux) diagTCP() bool {
	c := &x.conns
	cn := &c.counts
	if !c.diag.usable() || !x.diagDone(c.diag.tcp(cn)) {
		return false
	}
	copy(c.tcp[:], cn[0][:])
	copy(c.tcp6[:], cn[1][:])
	c.ok["net/tcp"], c.ok["net/tcp6"] = true, true
	return true
}

// diagUDP counts UDP sockets through socket diagnostics, and says
// whether it could.
func (x *Linux) diagUDP() bool {
	c := &x.conns
	cn := &c.counts
	if !c.diag.usable() || !x.diagDone(c.diag.udp(syscall.AF_INET, cn)) {
		return false
	}
	c.udp = [2]uint64{cn[0][1], cn[0][7]} // established, and unconnected ("listen")
	if !x.diagDone(c.diag.udp(syscall.AF_INET6, cn)) {
		return false
	}
	c.udp6 = [2]uint64{cn[1][1], cn[1][7]}
	c.ok["net/udp"], c.ok["net/udp6"] = true, true
	return true
}

// diagDone says whether a dump succeeded. A failure leaves the counting
// to the files for the next diagRetryAfter counts, and is logged when it
// follows a success (a kernel that keeps refusing is reported once); a
// success after failures is logged too.
func (x *Linux) diagDone(err error) bool {
	d := &x.conns.diag
	if err != nil {
		if !d.failing {
			x.log.Printf("linux: socket diagnostics failed (%v); counting sockets from %s/net instead, trying again after %d counts", err, x.proc, diagRetryAfter)
		}
		d.failing, d.wait = true, diagRetryAfter
		return false
	}
	if d.failing {
		d.failing = false
		x.log.Printf("linux: socket diagnostics work again; counting sockets through them")
	}
	return true
}
