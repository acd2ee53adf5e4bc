package linux

import (
	"github.com/gopcp/gopcp/pmda"
	"strconv"
)

// hardwareData is what hinv reads from sysfs besides /proc: tape drives,
// Fibre Channel hosts and each CPU's frequency scaling.
type hardwareData struct {
	ntape, nfchost uint64
	freq           []cpuFreq // by CPU number
	path           []byte
}

// cpuFreq is a CPU's frequency scaling figures in MHz, with which of them
// the kernel offers.
type cpuFreq struct {
	count, time, max, min uint64
	hasCount, hasTime     bool
	hasMax, hasMin        bool
}

func (x *Linux) bindHardware() {
	hw := &x.hw
	x.sources[srcHardware] = x.readHardware
	x.bind("hinv.ntape", srcHardware, func(int32) (pcpAtom, error) { return u32(hw.ntape), nil })
	x.bind("hinv.nfchost", srcHardware, func(int32) (pcpAtom, error) { return u32(hw.nfchost), nil })
	freq := func(name string, f func(c *cpuFreq) (uint64, bool)) {
		x.bind("hinv.cpu.frequency_scaling."+name, srcHardware, func(inst int32) (pcpAtom, error) {
			if !x.stat.has(inst) {
				return pcpAtom{}, noInst
			}
			if int(inst) >= len(hw.freq) {
				return pcpAtom{}, pmda.ErrNoValue
			}
			v, ok := f(&hw.freq[inst])
			if !ok {
				return pcpAtom{}, pmda.ErrNoValue
			}
			return u64(v), nil
		})
	}
	freq("count", func(c *cpuFreq) (uint64, bool) { return c.count, c.hasCount })
	freq("time", func(c *cpuFreq) (uint64, bool) { return c.time, c.hasTime })
	freq("max", func(c *cpuFreq) (uint64, bool) { return c.max, c.hasMax })
	freq("min", func(c *cpuFreq) (uint64, bool) { return c.min, c.hasMin })
}

// readHardware counts tape drives and FC hosts and reads each CPU's
// frequency scaling: the governor's time_in_state statistics when there
// are some (count is the sum of frequency times ticks, time the ticks),
// else the limits and current frequency.
func (x *Linux) readHardware() error {
	hw := &x.hw
	hw.ntape = x.countDir(x.sys+"/class/scsi_tape", func(n []byte) bool {
		// st0, not the st0a/nst0 variants of the same drive
		return len(n) > 2 && string(n[:2]) == "st" && isDigit(n[len(n)-1])
	})
	hw.nfchost = x.countDir(x.sys+"/class/fc_host", func([]byte) bool { return true })
	for _, in := range x.indoms[cpuInDom].list() {
		n := int(in.ID)
		for len(hw.freq) <= n {
			hw.freq = append(hw.freq, cpuFreq{})
		}
		f := &hw.freq[n]
		*f = cpuFreq{}
		if b, err := x.fb.readBytes(x.cpufreqPath(n, "stats/time_in_state")); err == nil {
			f.hasCount, f.hasTime, f.hasMax, f.hasMin = true, true, true, true
			for len(b) > 0 {
				var line []byte
				line, b = nextLine(b)
				fr, rest := nextField(line)
				ct, _ := nextField(rest)
				if len(fr) == 0 || len(ct) == 0 {
					break
				}
				mhz, ticks := parseU64(fr)/1000, parseU64(ct)
				f.count += mhz * ticks
				f.time += ticks
				f.max = max(f.max, mhz)
				if f.min == 0 || mhz < f.min {
					f.min = mhz
				}
			}
			continue
		}
		if b, err := x.fb.readBytes(x.cpufreqPath(n, "cpuinfo_max_freq")); err == nil {
			f.max, f.hasMax = parseU64(b)/1000, true
		}
		if b, err := x.fb.readBytes(x.cpufreqPath(n, "cpuinfo_min_freq")); err == nil {
			f.min, f.hasMin = parseU64(b)/1000, true
		}
		if b, err := x.fb.readBytes(x.cpufreqPath(n, "scaling_cur_freq")); err == nil {
			f.count, f.hasCount = parseU64(b)/1000, true
		}
	}
	return nil
}

func (x *Linux) cpufreqPath(cpu int, rel string) []byte {
	hw := &x.hw
	hw.path = append(append(hw.path[:0], x.sys...), "/devices/system/cpu/cpu"...)
	hw.path = strconv.AppendInt(hw.path, int64(cpu), 10)
	hw.path = append(append(hw.path, "/cpufreq/"...), rel...)
	return hw.path
}

// countDir counts the entries of dir that keep accepts; a missing
// directory counts none.
func (x *Linux) countDir(dir string, keep func([]byte) bool) uint64 {
	if x.dir.Read(false, dir) != nil {
		return 0
	}
	var n uint64
	for i := range x.dir.Len() {
		if keep(x.dir.At(i)) {
			n++
		}
	}
	return n
}
