package linux

import "strconv"

// irqTable is /proc/interrupts or /proc/softirqs: a heading of CPU
// columns, then a line per interrupt source with a count per column.
type irqTable struct {
	cpus   []int      // CPU number of each column
	counts [][]uint64 // by line instance number: count per column
	seen   []bool
	perCPU []uint64 // by CPU number: sum over lines
	totID  []int32  // by line instance number: instance in the per-CPU domain of column 0
	name   []byte
	// errors and missed are the ERR and MIS lines of /proc/interrupts.
	errors, missed uint64
	// text is each line's description (what follows the counts, spaces
	// collapsed), kept for the labels.
	text    map[string]string
	textBuf []byte
}

type interruptData struct{ irqTable }
type softirqData struct{ irqTable }

// parseIRQ reads one such file, listing lines in lineDom and
// "LINE::cpuN" pairs in cpuDom.
func (x *Linux) parseIRQ(b []byte, t *irqTable, lineDom, cpuDom *indomTable) {
	head, b := nextLine(b)
	t.cpus = t.cpus[:0]
	for rest := head; ; {
		var f []byte
		f, rest = nextField(rest)
		if len(f) == 0 {
			break
		}
		if !hasPrefix(f, "CPU") || parseU64(f[3:]) > maxCPU {
			continue
		}
		t.cpus = append(t.cpus, int(parseU64(f[3:])))
	}
	clear(t.seen)
	clear(t.perCPU)
	t.errors, t.missed = 0, 0
	lineDom.begin()
	cpuDom.begin()
	for len(b) > 0 {
		var line []byte
		line, b = nextLine(b)
		key, rest := nextField(line)
		if len(key) < 2 || key[len(key)-1] != ':' {
			continue
		}
		key = key[:len(key)-1]
		switch string(key) {
		case "ERR":
			t.errors = parseU64(rest)
			continue
		case "MIS":
			t.missed = parseU64(rest)
			continue
		}
		id := lineDom.add(key)
		for int(id) >= len(t.counts) {
			t.counts = append(t.counts, nil)
			t.seen = append(t.seen, false)
			t.totID = append(t.totID, 0)
		}
		t.seen[id] = true
		c := t.counts[id][:0]
		for col, cpu := range t.cpus {
			var f []byte
			f, rest = nextField(rest)
			v := parseU64(f)
			c = append(c, v)
			for len(t.perCPU) <= cpu {
				t.perCPU = append(t.perCPU, 0)
			}
			t.perCPU[cpu] += v
			t.name = append(append(t.name[:0], key...), "::cpu"...)
			t.name = strconv.AppendInt(t.name, int64(cpu), 10)
			pid := cpuDom.add(t.name)
			if col == 0 {
				t.totID[id] = pid
			}
		}
		t.counts[id] = c
		t.textBuf = t.textBuf[:0]
		for {
			var w []byte
			w, rest = nextField(rest)
			if len(w) == 0 {
				break
			}
			if len(t.textBuf) > 0 {
				t.textBuf = append(t.textBuf, ' ')
			}
			t.textBuf = append(t.textBuf, w...)
		}
		if t.text == nil {
			t.text = map[string]string{}
		}
		if old, ok := t.text[string(key)]; !ok || old != string(t.textBuf) {
			t.text[string(key)] = string(t.textBuf)
		}
	}
	lineDom.end()
	cpuDom.end()
}

// line returns the counts of line instance id, or nil.
func (t *irqTable) line(id int32) []uint64 {
	if id < 0 || int(id) >= len(t.counts) || !t.seen[id] {
		return nil
	}
	return t.counts[id]
}

// pair returns the count of a "LINE::cpuN" instance.
func (t *irqTable) pair(cpuDom *indomTable, inst int32) (uint64, bool) {
	for id := range t.counts {
		if !t.seen[id] {
			continue
		}
		base := t.totID[id]
		if inst >= base && int(inst-base) < len(t.counts[id]) {
			// Pairs of a line are numbered consecutively when first seen.
			return t.counts[id][inst-base], true
		}
	}
	return 0, false
}

func (x *Linux) bindInterrupts() {
	t := &x.interrupts.irqTable
	x.sources[srcInterrupts] = func() error {
		b, err := x.readProc("interrupts")
		if err != nil {
			return err
		}
		x.parseIRQ(b, t, &x.indoms[interruptInDom], &x.indoms[intrCPUInDom])
		return nil
	}
	x.bindIRQ(t, srcInterrupts, "kernel.all.interrupts.total", "kernel.percpu.interrupts", "kernel.percpu.intr", intrCPUInDom)
	x.bind("kernel.all.interrupts.errors", srcInterrupts, func(int32) (pcpAtom, error) { return u32(t.errors), nil })
	x.bind("kernel.all.interrupts.missed", srcInterrupts, func(int32) (pcpAtom, error) { return u32(t.missed), nil })
}

func (x *Linux) bindSoftirqs() {
	t := &x.softirqs.irqTable
	x.sources[srcSoftirqs] = func() error {
		b, err := x.readProc("softirqs")
		if err != nil {
			return err
		}
		x.parseIRQ(b, t, &x.indoms[softirqInDom], &x.indoms[softirqCPUInDom])
		return nil
	}
	x.bindIRQ(t, srcSoftirqs, "kernel.all.softirqs.total", "kernel.percpu.softirqs", "kernel.percpu.sirq", softirqCPUInDom)
}

// bindIRQ binds a table's per-line totals, per line and CPU counts, and
// per-CPU sums.
func (x *Linux) bindIRQ(t *irqTable, src source, total, pairs, perCPU string, cpuDom int) {
	x.bind(total, src, func(inst int32) (pcpAtom, error) {
		c := t.line(inst)
		if c == nil {
			return pcpAtom{}, noInst
		}
		var sum uint64
		for _, v := range c {
			sum += v
		}
		return u64(sum), nil
	})
	x.bind(pairs, src, func(inst int32) (pcpAtom, error) {
		v, ok := t.pair(&x.indoms[cpuDom], inst)
		if !ok {
			return pcpAtom{}, noInst
		}
		return u32(v), nil
	})
	x.bind(perCPU, src, func(inst int32) (pcpAtom, error) {
		if inst < 0 || int(inst) >= len(t.perCPU) {
			return pcpAtom{}, noInst
		}
		return u64(t.perCPU[inst]), nil
	})
}
