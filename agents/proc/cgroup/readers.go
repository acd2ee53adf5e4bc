package cgroup

import (
	"strconv"
	"unsafe"

	"github.com/gopcp/gopcp/pmda"
)

// lookup finds name in the cache of serial: the record kept with it, and
// whether it is active now.
func (s *Source) lookup(serial uint32, name string) (priv any, active bool) {
	_, state, priv, err := s.caches[serial].LookupName(name)
	if err != nil {
		return nil, false
	}
	return priv, state == pmda.CacheActive
}

// instName is an instance name made of parts, as a string the caches can
// keep: the one the cache of serial holds, when it holds that name, else
// a new one (not a new one every fetch).
func (s *Source) instName(serial uint32, parts ...string) string {
	s.keyBuf = s.keyBuf[:0]
	for _, p := range parts {
		s.keyBuf = append(s.keyBuf, p...)
	}
	return s.keyName(serial)
}

// keyName is instName of what s.keyBuf holds.
func (s *Source) keyName(serial uint32) string {
	view := unsafe.String(unsafe.SliceData(s.keyBuf), len(s.keyBuf))
	c := s.caches[serial]
	if inst, _, _, err := c.LookupName(view); err == nil {
		if name, _, _, err := c.Lookup(inst); err == nil && name == view {
			return name
		}
	}
	return string(s.keyBuf)
}

// record is the record of inst in the cache of serial for a refresh to
// fill: the one kept with it, or a new one; nil when inst is active
// already (read once this refresh, as a cgroup reached through two mounts
// is), which pmdaproc's refresh_* leave as they are.
func record[T any](s *Source, serial uint32, inst string) *T {
	priv, active := s.lookup(serial, inst)
	if active {
		return nil
	}
	if g, _ := priv.(*T); g != nil {
		return g
	}
	return new(T)
}

// keyed calls fn for each "name value" line of the file at path, as
// pmdaproc's "%s %llu" readers do; false when the file cannot be read.
func (s *Source) keyed(path string, fn func(key string, v uint64)) bool {
	b, err := s.read(path)
	if err != nil {
		return false
	}
	piecesView(b, 4096, func(line string) bool {
		key, i, ok := scanWord(line, 0)
		if !ok {
			return true
		}
		v, _, ok := scanULL(line, i)
		if !ok {
			return true
		}
		fn(key, v)
		return true
	})
	return true
}

// refreshCpuset reads one cgroup's cpuset files (refresh_cpuset); dir is
// where it looks for them.
func (s *Source) refreshCpuset(dir, name string) {
	esc := unescape(name)
	g := record[cpusetGroup](s, InDomCpuset, esc)
	if g == nil {
		return
	}
	g.cpus = s.readString(s.at(dir, "/cpuset.cpus"), g.cpus)
	g.mems = s.readString(s.at(dir, "/cpuset.mems"), g.mems)
	g.container = containerID(name)
	s.add(InDomCpuset, esc, g)
}

// refreshCpuacct reads one cgroup's cpuacct files (refresh_cpuacct).
// cpuacct.stat fields carry over from the last file read that had them,
// and a missing file leaves the record's, as in pmdaproc.
func (s *Source) refreshCpuacct(dir, name string) {
	esc := unescape(name)
	g := record[cpuacctGroup](s, InDomCpuacct, esc)
	if g == nil {
		return
	}
	if s.keyed(s.at(dir, "/cpuacct.stat"), func(k string, v uint64) {
		switch k {
		case "user":
			s.lastCpuacct.user = v
		case "system":
			s.lastCpuacct.system = v
		}
	}) {
		g.stat = s.lastCpuacct
	}
	g.usage = s.readULL(s.at(dir, "/cpuacct.usage"))
	s.readPercpu(s.at(dir, "/cpuacct.usage_percpu"), esc)
	g.container = containerID(name)
	s.add(InDomCpuacct, esc, g)
}

// readPercpu reads cpuacct.usage_percpu's first line: one value per CPU,
// the last one dropped unless space follows it, as strtoull's loop in
// pmdaproc stops (read_percpuacct_usage).
func (s *Source) readPercpu(path, esc string) {
	b, err := s.read(path)
	if err != nil {
		return
	}
	line, ok := firstLine(b, 16*4096)
	if !ok {
		return
	}
	p := 0
	for cpu := 0; ; cpu++ {
		v, end, ok := strtoull(line, p, 0)
		if !ok || end >= len(line) {
			break
		}
		p = skipSpace(line, end)
		s.keyBuf = strconv.AppendInt(append(append(s.keyBuf[:0], esc...), "::cpu"...), int64(cpu), 10)
		inst := s.keyName(InDomPerCPU)
		g := record[percpuGroup](s, InDomPerCPU, inst)
		if g == nil {
			continue
		}
		g.usage = v
		s.add(InDomPerCPU, inst, g)
	}
}

// refreshCpusched reads one cgroup's cpu controller files
// (refresh_cpusched).
func (s *Source) refreshCpusched(dir, name string) {
	esc := unescape(name)
	g := record[cpuschedGroup](s, InDomCpusched, esc)
	if g == nil {
		return
	}
	g.periods, g.throttled, g.throttledTime = none, none, none
	s.keyed(s.at(dir, "/cpu.stat"), func(k string, v uint64) {
		switch k {
		case "nr_periods":
			g.periods = v
		case "nr_throttled":
			g.throttled = v
		case "throttled_time":
			g.throttledTime = v
		}
	})
	g.shares = s.readULL(s.at(dir, "/cpu.shares"))
	g.cfsPeriod = s.readULL(s.at(dir, "/cpu.cfs_period_us"))
	g.cfsQuota = s.readLL(s.at(dir, "/cpu.cfs_quota_us"))
	g.container = containerID(name)
	s.add(InDomCpusched, esc, g)
}

// refreshMemory reads one cgroup's memory files (refresh_memory).
func (s *Source) refreshMemory(dir, name string) {
	esc := unescape(name)
	g := record[memoryGroup](s, InDomMemory, esc)
	if g == nil {
		return
	}
	for i := range g.stat {
		g.stat[i] = none
	}
	s.keyed(s.at(dir, "/memory.stat"), func(k string, v uint64) {
		if i := memField(k); i >= 0 {
			g.stat[i] = v
		}
	})
	g.current = s.readULL(s.at(dir, "/memory.current"))
	g.limit = s.readULL(s.at(dir, "/memory.limit_in_bytes"))
	g.usage = s.readULL(s.at(dir, "/memory.usage_in_bytes"))
	g.failcnt = s.readULL(s.at(dir, "/memory.failcnt"))
	g.container = containerID(name)
	s.add(InDomMemory, esc, g)
}

// refreshNetcls reads one cgroup's net_cls.classid (refresh_netcls).
func (s *Source) refreshNetcls(dir, name string) {
	esc := unescape(name)
	g := record[netclsGroup](s, InDomNetcls, esc)
	if g == nil {
		return
	}
	g.classid = s.readULL(s.at(dir, "/net_cls.classid"))
	g.container = containerID(name)
	s.add(InDomNetcls, esc, g)
}

// blkioFiles are the blkio files with per-operation lines, by statistic.
var blkioFiles = [nBlkioOps]string{"blkio.io_merged", "blkio.io_queued", "blkio.io_service_bytes",
	"blkio.io_serviced", "blkio.io_service_time", "blkio.io_wait_time",
	"blkio.throttle.io_service_bytes", "blkio.throttle.io_serviced"}

// perdevBlkio is get_perdevblkio: the per-device record of a cgroup, reset
// the first time a refresh touches it.
func (s *Source) perdevBlkio(name, disk string) (string, *blkioDev) {
	inst := s.instName(InDomBlkioDev, unescape(name), "::", disk)
	priv, active := s.lookup(InDomBlkioDev, inst)
	d, _ := priv.(*blkioDev)
	if d == nil {
		d = &blkioDev{}
	} else if !active {
		*d = blkioDev{}
	}
	return inst, d
}

// readBlkioStats reads one "MAJ:MIN Op value" file into the per-device
// records and returns the cgroup's totals (read_blkio_devices_stats): a
// device's values count once its Total line is read.
func (s *Source) readBlkioStats(path, name string, stat int) blkiops {
	var total, cur blkiops
	b, err := s.read(path)
	if err != nil {
		return total
	}
	dev := ""
	var v uint64 // C's uninitialised value: the last line's, when a line has none
	piecesView(b, 4096, func(line string) bool {
		devt, i, ok := scanDevt(line)
		if !ok {
			return true
		}
		op, i, ok := scanWord(line, i)
		if !ok {
			return true
		}
		if n, _, ok := scanULL(line, i); ok {
			v = n
		}
		dn, found := s.devt[devt]
		real := dn.name
		if !found {
			return true
		}
		if dev != real {
			cur = blkiops{}
		}
		dev = real
		for k, n := range blkioOpNames {
			if op != n {
				continue
			}
			cur[k] = v
			if n != "Total" {
				break
			}
			inst, d := s.perdevBlkio(name, dev)
			d.stats.ops[stat] = cur
			s.add(InDomBlkioDev, inst, d)
			for j := range total {
				total[j] += cur[j]
			}
			break
		}
		return true
	})
	return total
}

// readBlkioValue reads one "MAJ:MIN value" file (blkio.sectors,
// blkio.time) and returns the cgroup's total (read_blkio_devices_value).
func (s *Source) readBlkioValue(path, name string, time bool) uint64 {
	var total uint64
	b, err := s.read(path)
	if err != nil {
		return 0
	}
	piecesView(b, 4096, func(line string) bool {
		devt, i, ok := scanDevt(line)
		if !ok {
			return true
		}
		v, _, ok := scanULL(line, i)
		if !ok {
			return true
		}
		dn, found := s.devt[devt]
		dev := dn.name
		if !found {
			return true
		}
		inst, d := s.perdevBlkio(name, dev)
		if time {
			d.stats.time = v
		} else {
			d.stats.sectors = v
		}
		s.add(InDomBlkioDev, inst, d)
		total += v
		return true
	})
	return total
}

// refreshBlkio reads one cgroup's blkio files (refresh_blkio).
func (s *Source) refreshBlkio(dir, name string) {
	esc := unescape(name)
	g := record[blkioGroup](s, InDomBlkio, esc)
	if g == nil {
		return
	}
	for k := range blkioFiles[:bioThrottleServiceBytes] {
		g.total.ops[k] = s.readBlkioStats(s.at(dir, "/", blkioFiles[k]), name, k)
	}
	g.total.sectors = s.readBlkioValue(s.at(dir, "/blkio.sectors"), name, false)
	g.total.time = s.readBlkioValue(s.at(dir, "/blkio.time"), name, true)
	for k := bioThrottleServiceBytes; k < nBlkioOps; k++ {
		g.total.ops[k] = s.readBlkioStats(s.at(dir, "/", blkioFiles[k]), name, k)
	}
	g.container = containerID(name)
	s.add(InDomBlkio, esc, g)
}
