package linux

import "strings"

// snmpField is one counter of /proc/net/snmp or /proc/net/netstat: its
// section ("Tcp", "TcpExt", ...), field, and PCP's metric name.
type snmpField struct {
	section, field, metric string
}

func (x *Linux) bindSnmp() {
	k := &x.snmp
	x.sources[srcSnmp] = x.readSnmp
	for _, f := range snmpFields {
		x.bind(f.metric, srcSnmp, k.getter(k.slot(f.section+":"+f.field)))
	}
}

// readSnmp parses /proc/net/snmp and /proc/net/netstat: pairs of lines,
// a header naming the fields of a section and a line of their values.
func (x *Linux) readSnmp() error {
	k := &x.snmp
	k.reset()
	x.conns.icmpInOK, x.conns.icmpOutOK = [256]bool{}, [256]bool{}
	// Each file's metrics go without values when it is missing (the
	// slots stay unset); the source fails only when neither exists.
	var failed int
	var lastErr error
	for _, file := range []string{"net/snmp", "net/netstat"} {
		b, err := x.readProc(file)
		if err != nil {
			failed++
			lastErr = err
			continue
		}
		for len(b) > 0 {
			var head, vals []byte
			head, b = nextLine(b)
			vals, b = nextLine(b)
			sec, hrest := nextField(head)
			vsec, vrest := nextField(vals)
			if string(sec) != string(vsec) {
				continue // out of step; PCP's reader skips such a pair too
			}
			for {
				var name, val []byte
				name, hrest = nextField(hrest)
				val, vrest = nextField(vrest)
				if len(name) == 0 || len(val) == 0 {
					break
				}
				if string(sec) == "IcmpMsg:" {
					x.conns.icmpmsg(name, parseU64(val))
					continue
				}
				// sec keeps its colon: "Tcp:" + "RtoMin" is the key.
				k.setPrefixed(&x.scratch, sec, name, uint64(parseI64(val)))
			}
		}
	}
	if failed == 2 {
		return lastErr
	}
	return nil
}

// snmp6Groups are /proc/net/snmp6's prefixes and PCP's metric groups.
var snmp6Groups = []struct{ prefix, group string }{
	{"Ip6", "network.ip6."},
	{"Icmp6", "network.icmp6."},
	{"UdpLite6", "network.udplite6."},
	{"Udp6", "network.udp6."},
}

func (x *Linux) bindSnmp6() {
	k := &x.snmp6
	x.sources[srcSnmp6] = x.readSnmp6
	for _, g := range snmp6Groups {
		for i := range pcpDescs {
			name := pcpDescs[i].Name
			if !strings.HasPrefix(name, g.group) || strings.Count(name, ".") != 2 {
				continue
			}
			// The key is the lower-cased kernel name, which is PCP's.
			x.bind(name, srcSnmp6, k.getter(k.slot(strings.ToLower(g.prefix)+name[len(g.group):])))
		}
	}
}

// readSnmp6 parses "Ip6InReceives  123" lines.
func (x *Linux) readSnmp6() error {
	b, err := x.readProc("net/snmp6")
	if err != nil {
		return err
	}
	k := &x.snmp6
	// Fields this kernel does not list read as zero, as PCP's agent has
	// them when the file exists.
	for i := range k.seen {
		k.vals[i], k.seen[i] = 0, true
	}
	for len(b) > 0 {
		var line []byte
		line, b = nextLine(b)
		name, rest := nextField(line)
		x.scratch = append(x.scratch[:0], name...)
		for i, c := range x.scratch {
			if c >= 'A' && c <= 'Z' {
				x.scratch[i] = c + 'a' - 'A'
			}
		}
		k.set(x.scratch, parseU64(rest))
	}
	return nil
}

func (x *Linux) bindSockstat() {
	k := &x.sockstat
	x.sources[srcSockstat] = x.readSockstat
	const group = "network.sockstat."
	for i := range pcpDescs {
		name := pcpDescs[i].Name
		if !strings.HasPrefix(name, group) {
			continue
		}
		key := name[len(group):]
		if key == "total" {
			key = "sockets.used"
		}
		x.bind(name, srcSockstat, k.getter(k.slot(key)))
	}
}

// readSockstat parses "TCP: inuse 2 orphan 0 ..." lines of
// /proc/net/sockstat and sockstat6 into keys such as "tcp.inuse".
func (x *Linux) readSockstat() error {
	k := &x.sockstat
	k.reset()
	// Lines this kernel does not print, and the lines of a file it does
	// not have, read as zero, as PCP's agent has them.
	for i := range k.seen {
		k.vals[i], k.seen[i] = 0, true
	}
	for _, file := range []string{"net/sockstat", "net/sockstat6"} {
		b, err := x.readProc(file)
		if err != nil {
			continue
		}
		for len(b) > 0 {
			var line []byte
			line, b = nextLine(b)
			sec, rest := nextField(line)
			if len(sec) == 0 || sec[len(sec)-1] != ':' {
				continue
			}
			x.prefix = append(x.prefix[:0], sec[:len(sec)-1]...)
			for i, c := range x.prefix {
				if c >= 'A' && c <= 'Z' {
					x.prefix[i] = c + 'a' - 'A'
				}
			}
			x.prefix = append(x.prefix, '.')
			for {
				var name, val []byte
				name, rest = nextField(rest)
				val, rest = nextField(rest)
				if len(name) == 0 || len(val) == 0 {
					break
				}
				k.setPrefixed(&x.scratch, x.prefix, name, uint64(parseI64(val)))
			}
		}
	}
	return nil
}

// softnetData is /proc/net/softnet_stat: one line of hexadecimal counters
// per CPU.
type softnetData struct {
	cpus  [][6]uint64 // by CPU number
	seen  []bool
	total [6]uint64
}

// softnetCols are the metric names and their columns in a line.
var softnetCols = []struct {
	name string
	col  int
}{
	{"processed", 0}, {"dropped", 1}, {"time_squeeze", 2},
	{"cpu_collision", 8}, {"received_rps", 9}, {"flow_limit_count", 10},
}

func (x *Linux) bindSoftnet() {
	sn := &x.softnet
	x.sources[srcSoftnet] = x.readSoftnet
	for i, c := range softnetCols {
		x.bind("network.softnet."+c.name, srcSoftnet, func(int32) (pcpAtom, error) { return u64(sn.total[i]), nil })
		x.bind("network.softnet.percpu."+c.name, srcSoftnet, func(inst int32) (pcpAtom, error) {
			if inst < 0 || int(inst) >= len(sn.cpus) || !sn.seen[inst] {
				return pcpAtom{}, noInst
			}
			return u64(sn.cpus[inst][i]), nil
		})
	}
}

func (x *Linux) readSoftnet() error {
	b, err := x.readProc("net/softnet_stat")
	if err != nil {
		return err
	}
	sn := &x.softnet
	clear(sn.seen)
	sn.total = [6]uint64{}
	for row := 0; len(b) > 0; row++ {
		var line []byte
		line, b = nextLine(b)
		x.fields = fields(line, x.fields)
		f := x.fields
		if len(f) < 3 {
			continue
		}
		cpu := row
		if len(f) >= 13 { // Linux 5.10 and later name the CPU
			cpu = int(min(parseHex(f[12]), maxCPU))
		}
		if cpu > maxCPU {
			break
		}
		for len(sn.cpus) <= cpu {
			sn.cpus = append(sn.cpus, [6]uint64{})
			sn.seen = append(sn.seen, false)
		}
		sn.seen[cpu] = true
		for i, c := range softnetCols {
			var v uint64
			if c.col < len(f) {
				v = parseHex(f[c.col])
			}
			sn.cpus[cpu][i] = v
			sn.total[i] += v
		}
	}
	return nil
}
