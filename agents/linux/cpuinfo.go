package linux

import (
	"github.com/gopcp/gopcp/pmda"
	"strconv"
)

// cpuInfo is one processor's block of /proc/cpuinfo.
type cpuInfo struct {
	clock, bogomips                  float64
	vendor, model, stepping, flags   string
	modelName                        string
	cache, cacheAlign                uint64
	hasVendor, hasModel, hasStepping bool
	hasFlags, hasModelName, seen     bool
	thermal                          [4]uint64 // core count, core time, package count, package time
}

type cpuinfoData struct {
	cpus []cpuInfo // by CPU number
	path []byte
}

func (x *Linux) bindCPUInfo() {
	ci := &x.cpuinfo
	x.sources[srcCPUInfo] = x.readCPUInfo
	// A CPU /proc/stat lists but /proc/cpuinfo does not describes as
	// "unknown", with no clock, cache or BogoMIPS figures, as with PCP.
	var unknown cpuInfo
	get := func(inst int32) *cpuInfo {
		if inst < 0 || int(inst) >= len(ci.cpus) || !ci.cpus[inst].seen {
			if x.stat.has(inst) {
				return &unknown
			}
			return nil
		}
		return &ci.cpus[inst]
	}
	one := func(name string, f func(c *cpuInfo) (pcpAtom, bool)) {
		x.bind("hinv.cpu."+name, srcCPUInfo, func(inst int32) (pcpAtom, error) {
			c := get(inst)
			if c == nil {
				return pcpAtom{}, noInst
			}
			a, ok := f(c)
			if !ok {
				return pcpAtom{}, pmda.ErrNoValue
			}
			return a, nil
		})
	}
	text := func(s string, ok bool) (pcpAtom, bool) {
		if !ok {
			s = "unknown"
		}
		return str(s), true
	}
	one("clock", func(c *cpuInfo) (pcpAtom, bool) { return f32(c.clock), c.clock != 0 })
	one("bogomips", func(c *cpuInfo) (pcpAtom, bool) { return f32(c.bogomips), c.bogomips != 0 })
	one("cache", func(c *cpuInfo) (pcpAtom, bool) { return u32(c.cache), c.cache != 0 })
	one("cache_alignment", func(c *cpuInfo) (pcpAtom, bool) { return u32(c.cacheAlign), c.cacheAlign != 0 })
	one("vendor", func(c *cpuInfo) (pcpAtom, bool) { return text(c.vendor, c.hasVendor) })
	one("stepping", func(c *cpuInfo) (pcpAtom, bool) { return text(c.stepping, c.hasStepping) })
	one("flags", func(c *cpuInfo) (pcpAtom, bool) { return text(c.flags, c.hasFlags) })
	one("model", func(c *cpuInfo) (pcpAtom, bool) {
		if c.hasModel {
			return text(c.model, true)
		}
		return text(c.modelName, c.hasModelName)
	})
	one("model_name", func(c *cpuInfo) (pcpAtom, bool) {
		if c.hasModelName {
			return text(c.modelName, true)
		}
		return text(c.model, c.hasModel)
	})
	for i, name := range []string{"thermal_throttle.core.count", "thermal_throttle.core.time",
		"thermal_throttle.package.count", "thermal_throttle.package.time"} {
		one(name, func(c *cpuInfo) (pcpAtom, bool) { return u64(c.thermal[i]), true })
	}
}

// cpuinfoKeys are the line prefixes read, in the order PCP's agent tries
// them (several architectures' spellings), each taken once per block.
const (
	kModelName = iota
	kModel
	kVendor
	kStepping
	kFlags
	kCache
	kCacheAlign
	kBogo
	kClock
)

var cpuinfoPrefixes = []struct {
	prefix string
	key    int
}{
	{"model name", kModelName}, {"hardware", kModelName},
	{"model", kModel}, {"cpu model", kModel}, {"cpu variant", kModel},
	{"vendor", kVendor}, {"cpu implementer", kVendor},
	{"step", kStepping}, {"revision", kStepping}, {"cpu revision", kStepping},
	{"flags", kFlags}, {"features", kFlags},
	{"cache size", kCache}, {"cache_align", kCacheAlign},
	{"bogo", kBogo}, {"cpu mhz", kClock},
}

// readCPUInfo parses /proc/cpuinfo and each CPU's thermal throttle counts.
func (x *Linux) readCPUInfo() error {
	ci := &x.cpuinfo
	for i := range ci.cpus {
		ci.cpus[i].seen = false
	}
	b, err := x.readProc("cpuinfo")
	if err != nil {
		return nil // every CPU is then "unknown"
	}
	var c *cpuInfo
	var got [kClock + 1]bool
	for len(b) > 0 {
		var line []byte
		line, b = nextLine(b)
		colon := -1
		for i, ch := range line {
			if ch == ':' {
				colon = i
				break
			}
		}
		if colon < 0 {
			continue
		}
		key := trimSpace(line[:colon])
		val := trimSpace(line[colon+1:])
		if string(key) == "processor" {
			if parseU64(val) > maxCPU {
				c = nil
				continue
			}
			n := int(parseU64(val))
			for len(ci.cpus) <= n {
				ci.cpus = append(ci.cpus, cpuInfo{})
			}
			c = &ci.cpus[n]
			c.seen = true
			c.hasVendor, c.hasModel, c.hasStepping, c.hasFlags, c.hasModelName = false, false, false, false, false
			got = [kClock + 1]bool{}
			continue
		}
		if c == nil {
			continue
		}
		k := -1
		for _, p := range cpuinfoPrefixes {
			if hasPrefixFold(key, p.prefix) && (!got[p.key] || p.key == kClock) {
				k = p.key
				break
			}
		}
		if k < 0 {
			continue
		}
		got[k] = true
		switch k {
		case kModelName:
			c.modelName, c.hasModelName = keepString(c.modelName, val), true
		case kModel:
			c.model, c.hasModel = keepString(c.model, val), true
		case kVendor:
			c.vendor, c.hasVendor = keepString(c.vendor, val), true
		case kStepping:
			c.stepping, c.hasStepping = keepString(c.stepping, val), true
		case kFlags:
			c.flags, c.hasFlags = keepString(c.flags, val), true
		case kCache:
			c.cache = parseU64(val)
		case kCacheAlign:
			c.cacheAlign = parseU64(val)
		case kBogo:
			c.bogomips = parseFloat(val)
		case kClock:
			c.clock = parseFloat(val)
		}
	}
	files := []string{"core_throttle_count", "core_throttle_total_time_ms", "package_throttle_count", "package_throttle_total_time_ms"}
	for n := range ci.cpus {
		if !ci.cpus[n].seen {
			continue
		}
		for i, f := range files {
			ci.path = append(append(ci.path[:0], x.sys...), "/devices/system/cpu/cpu"...)
			ci.path = strconv.AppendInt(ci.path, int64(n), 10)
			ci.path = append(append(ci.path, "/thermal_throttle/"...), f...)
			v, err := x.fb.readBytes(ci.path)
			ci.cpus[n].thermal[i] = 0
			if err == nil {
				ci.cpus[n].thermal[i] = parseU64(v)
			}
		}
	}
	return nil
}

// hasPrefixFold is hasPrefix ignoring ASCII case.
func hasPrefixFold(b []byte, p string) bool {
	if len(b) < len(p) {
		return false
	}
	for i := 0; i < len(p); i++ {
		c := b[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != p[i] {
			return false
		}
	}
	return true
}
