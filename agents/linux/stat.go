package linux

import "strconv"

// cpuTimes are one "cpu" line of /proc/stat in ticks: user, nice, system,
// idle, iowait, irq, softirq, steal, guest, guest_nice.
type cpuTimes [10]uint64

const (
	tUser = iota
	tNice
	tSys
	tIdle
	tWait
	tIRQ
	tSoftIRQ
	tSteal
	tGuest
	tGuestNice
)

// maxCPU bounds the CPU numbers believed from /proc text, so a corrupt
// file cannot make the agent allocate without limit.
const maxCPU = 1 << 16

// statData is /proc/stat.
type statData struct {
	all     cpuTimes
	cpus    []cpuTimes // by CPU number
	online  []bool     // by CPU number: listed in the last read
	ncpu    int
	intr    uint64
	ctxt    uint64
	btime   uint64
	forks   uint64
	running uint64
	blocked uint64
	nameBuf []byte
}

// cpuModes are the per-mode metric names and how each is computed from a
// line's ticks.
var cpuModes = []struct {
	name string
	val  func(t *cpuTimes) uint64
}{
	{"user", func(t *cpuTimes) uint64 { return t[tUser] }},
	{"nice", func(t *cpuTimes) uint64 { return t[tNice] }},
	{"sys", func(t *cpuTimes) uint64 { return t[tSys] }},
	{"idle", func(t *cpuTimes) uint64 { return t[tIdle] }},
	{"intr", func(t *cpuTimes) uint64 { return t[tIRQ] + t[tSoftIRQ] }},
	{"steal", func(t *cpuTimes) uint64 { return t[tSteal] }},
	{"guest", func(t *cpuTimes) uint64 { return t[tGuest] }},
	{"vuser", func(t *cpuTimes) uint64 { return t[tUser] - t[tGuest] }},
	{"guest_nice", func(t *cpuTimes) uint64 { return t[tGuestNice] }},
	{"vnice", func(t *cpuTimes) uint64 { return t[tNice] - t[tGuestNice] }},
	{"wait.total", func(t *cpuTimes) uint64 { return t[tWait] }},
	{"irq.soft", func(t *cpuTimes) uint64 { return t[tSoftIRQ] }},
	{"irq.hard", func(t *cpuTimes) uint64 { return t[tIRQ] }},
}

func (x *Linux) bindStat() {
	s := &x.stat
	x.sources[srcStat] = x.readStat
	for _, mode := range cpuModes {
		val := mode.val
		x.bind("kernel.all.cpu."+mode.name, srcStat, func(int32) (pcpAtom, error) {
			return u64(ms(val(&s.all), x.hz)), nil
		})
		x.bind("kernel.percpu.cpu."+mode.name, srcStat, func(inst int32) (pcpAtom, error) {
			if !s.has(inst) {
				return pcpAtom{}, noInst
			}
			return u64(ms(val(&s.cpus[inst]), x.hz)), nil
		})
		x.bind("kernel.pernode.cpu."+mode.name, srcStat, func(inst int32) (pcpAtom, error) {
			var sum uint64
			found := false
			for cpu := range s.cpus {
				if s.online[cpu] && x.nodes.nodeOf(cpu) == inst {
					sum += val(&s.cpus[cpu])
					found = true
				}
			}
			if !found {
				return pcpAtom{}, noInst
			}
			return u64(ms(sum, x.hz)), nil
		})
	}
	counter := func(name string, p *uint64) {
		x.bind(name, srcStat, func(int32) (pcpAtom, error) { return u64(*p), nil })
	}
	counter("kernel.all.intr", &s.intr)
	counter("kernel.all.pswitch", &s.ctxt)
	counter("kernel.all.sysfork", &s.forks)
	counter("kernel.all.running", &s.running)
	counter("kernel.all.blocked", &s.blocked)
	x.bind("kernel.all.boottime", srcStat, func(int32) (pcpAtom, error) { return i64(int64(s.btime)), nil })
	x.bind("kernel.all.hz", srcStatic, func(int32) (pcpAtom, error) { return u32(x.hz), nil })
	x.bind("hinv.ncpu", srcStat, func(int32) (pcpAtom, error) { return u32(uint64(s.ncpu)), nil })
	x.bind("hinv.map.cpu_num", srcStat, func(inst int32) (pcpAtom, error) {
		if !s.has(inst) {
			return pcpAtom{}, noInst
		}
		return u32(uint64(inst)), nil
	})
	x.bind("hinv.map.cpu_node", srcStat, func(inst int32) (pcpAtom, error) {
		if !s.has(inst) {
			return pcpAtom{}, noInst
		}
		n := x.nodes.nodeOf(int(inst))
		if n < 0 {
			n = 0
		}
		return u32(uint64(n)), nil
	})
}

func (s *statData) has(inst int32) bool {
	return inst >= 0 && int(inst) < len(s.cpus) && s.online[inst]
}

// readStat parses /proc/stat and lists the CPU instance domain.
func (x *Linux) readStat() error {
	b, err := x.readProc("stat")
	if err != nil {
		return err
	}
	s := &x.stat
	clear(s.online)
	s.ncpu = 0
	t := &x.indoms[cpuInDom]
	t.begin()
	for len(b) > 0 {
		var line []byte
		line, b = nextLine(b)
		key, rest := nextField(line)
		switch {
		case string(key) == "cpu":
			parseTimes(&s.all, rest)
		case hasPrefix(key, "cpu") && parseU64(key[3:]) <= maxCPU:
			n := int(parseU64(key[3:]))
			for len(s.cpus) <= n {
				s.cpus = append(s.cpus, cpuTimes{})
				s.online = append(s.online, false)
			}
			parseTimes(&s.cpus[n], rest)
			s.online[n] = true
			s.ncpu++
			s.nameBuf = strconv.AppendInt(append(s.nameBuf[:0], "cpu"...), int64(n), 10)
			t.addID(s.nameBuf, int32(n))
		case string(key) == "intr":
			f, _ := nextField(rest)
			s.intr = parseU64(f)
		case string(key) == "ctxt":
			s.ctxt = parseU64(rest)
		case string(key) == "btime":
			s.btime = parseU64(rest)
		case string(key) == "processes":
			s.forks = parseU64(rest)
		case string(key) == "procs_running":
			s.running = parseU64(rest)
		case string(key) == "procs_blocked":
			s.blocked = parseU64(rest)
		}
	}
	t.end()
	return nil
}

// parseTimes reads up to ten tick counts.
func parseTimes(t *cpuTimes, b []byte) {
	*t = cpuTimes{}
	for i := range t {
		var f []byte
		f, b = nextField(b)
		if len(f) == 0 {
			return
		}
		t[i] = parseU64(f)
	}
}
