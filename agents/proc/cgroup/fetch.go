package cgroup

import (
	"encoding/json"
	"math"
	"strings"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
)

// getter reads one metric's value from an active entry's record; false is
// no value.
type getter func(s *Source, priv any) (pcp.Atom, bool)

func ull(v uint64) (pcp.Atom, bool) { return pcp.Atom{ULL: v}, v != none }
func str(v string) (pcp.Atom, bool) { return pcp.Atom{CP: v}, true }

// psiAvg is what pmdaproc sends for a pressure average: it stores the
// float in the integer member of its value union, so the float PCP sends
// has the bits of the truncated integer.
func psiAvg(p *pressure, v float32) (pcp.Atom, bool) {
	if !p.updated {
		return pcp.Atom{}, false
	}
	return pcp.Atom{F: math.Float32frombits(uint32(uint64(truncate(v))))}, true
}

// truncate is C's conversion of a float to unsigned long long as x86-64
// code does it (the C standard leaves negative, NaN and too large values
// undefined): below 2^63, and for NaN, a signed truncation whose
// out-of-range answer is 1<<63; from 2^63, the same of v-2^63 with the top
// bit flipped.
func truncate(v float32) uint64 {
	const indefinite = uint64(1) << 63
	signed := func(f float64) uint64 {
		if f != f || f >= 1<<63 || f < -(1<<63) {
			return indefinite
		}
		return uint64(int64(f))
	}
	f := float64(v)
	if !(f >= 1<<63) {
		return signed(f)
	}
	return signed(f-(1<<63)) ^ indefinite
}

func psiTotal(p *pressure) (pcp.Atom, bool) {
	if !p.updated {
		return pcp.Atom{}, false
	}
	return pcp.Atom{ULL: p.total}, true
}

// bind returns the getter of the metric called name.
func (s *Source) bind(name string) getter {
	rest, ok := strings.CutPrefix(name, "cgroup.")
	if !ok {
		return nil
	}
	switch rest {
	case "cpuset.cpus":
		return func(_ *Source, p any) (pcp.Atom, bool) { return str(p.(*cpusetGroup).cpus) }
	case "cpuset.mems":
		return func(_ *Source, p any) (pcp.Atom, bool) { return str(p.(*cpusetGroup).mems) }
	case "cpuset.id.container":
		return func(_ *Source, p any) (pcp.Atom, bool) { return str(p.(*cpusetGroup).container) }
	case "cpuacct.stat.user":
		return func(_ *Source, p any) (pcp.Atom, bool) { return ull(p.(*cpuacctGroup).stat.user) }
	case "cpuacct.stat.system":
		return func(_ *Source, p any) (pcp.Atom, bool) { return ull(p.(*cpuacctGroup).stat.system) }
	case "cpuacct.usage":
		return func(_ *Source, p any) (pcp.Atom, bool) { return ull(p.(*cpuacctGroup).usage) }
	case "cpuacct.usage_percpu":
		return func(_ *Source, p any) (pcp.Atom, bool) { return ull(p.(*percpuGroup).usage) }
	case "cpuacct.id.container":
		return func(_ *Source, p any) (pcp.Atom, bool) { return str(p.(*cpuacctGroup).container) }
	case "cpusched.shares":
		return func(_ *Source, p any) (pcp.Atom, bool) { return ull(p.(*cpuschedGroup).shares) }
	case "cpusched.periods":
		return func(_ *Source, p any) (pcp.Atom, bool) { return ull(p.(*cpuschedGroup).periods) }
	case "cpusched.throttled":
		return func(_ *Source, p any) (pcp.Atom, bool) { return ull(p.(*cpuschedGroup).throttled) }
	case "cpusched.throttled_time":
		return func(_ *Source, p any) (pcp.Atom, bool) { return ull(p.(*cpuschedGroup).throttledTime) }
	case "cpusched.cfs_period":
		return func(_ *Source, p any) (pcp.Atom, bool) { return ull(p.(*cpuschedGroup).cfsPeriod) }
	case "cpusched.cfs_quota":
		return func(_ *Source, p any) (pcp.Atom, bool) {
			v := p.(*cpuschedGroup).cfsQuota
			return pcp.Atom{LL: v}, v != -1
		}
	case "cpusched.id.container":
		return func(_ *Source, p any) (pcp.Atom, bool) { return str(p.(*cpuschedGroup).container) }
	case "memory.current":
		return func(_ *Source, p any) (pcp.Atom, bool) { return ull(p.(*memoryGroup).current) }
	case "memory.usage":
		return func(_ *Source, p any) (pcp.Atom, bool) { return ull(p.(*memoryGroup).usage) }
	case "memory.limit":
		return func(_ *Source, p any) (pcp.Atom, bool) { return ull(p.(*memoryGroup).limit) }
	case "memory.failcnt":
		return func(_ *Source, p any) (pcp.Atom, bool) { return ull(p.(*memoryGroup).failcnt) }
	case "memory.id.container":
		return func(_ *Source, p any) (pcp.Atom, bool) { return str(p.(*memoryGroup).container) }
	case "netclass.classid":
		return func(_ *Source, p any) (pcp.Atom, bool) { return ull(p.(*netclsGroup).classid) }
	case "netclass.id.container":
		return func(_ *Source, p any) (pcp.Atom, bool) { return str(p.(*netclsGroup).container) }
	case "blkio.id.container":
		return func(_ *Source, p any) (pcp.Atom, bool) { return str(p.(*blkioGroup).container) }
	case "cpu.stat.user":
		return func(_ *Source, p any) (pcp.Atom, bool) { return ull(p.(*cgroup2Group).user) }
	case "cpu.stat.system":
		return func(_ *Source, p any) (pcp.Atom, bool) { return ull(p.(*cgroup2Group).system) }
	case "cpu.stat.usage":
		return func(_ *Source, p any) (pcp.Atom, bool) { return ull(p.(*cgroup2Group).usage) }
	}
	if key, ok := strings.CutPrefix(rest, "memory.stat."); ok {
		i := memField(strings.ReplaceAll(key, ".", "_"))
		if i < 0 {
			return nil
		}
		return func(_ *Source, p any) (pcp.Atom, bool) { return ull(p.(*memoryGroup).stat[i]) }
	}
	if key, ok := strings.CutPrefix(rest, "io.stat."); ok {
		for i, k := range [6]string{"rbytes", "wbytes", "rios", "wios", "dbytes", "dios"} {
			if k == key {
				return func(_ *Source, p any) (pcp.Atom, bool) { return ull(p.(*ioStat).v[i]) }
			}
		}
		return nil
	}
	if key, ok := strings.CutPrefix(rest, "pressure."); ok {
		return bindPressure(key)
	}
	if key, ok := strings.CutPrefix(rest, "blkio.dev."); ok {
		return bindBlkio(key, func(p any) *blkioStats { return &p.(*blkioDev).stats })
	}
	if key, ok := strings.CutPrefix(rest, "blkio.all."); ok {
		return bindBlkio(key, func(p any) *blkioStats { return &p.(*blkioGroup).total })
	}
	return nil
}

func bindPressure(key string) getter {
	f := strings.Split(key, ".") // cpu some avg10sec
	if len(f) != 3 {
		return nil
	}
	pick := map[string]func(g *cgroup2Group) *pressure{
		"cpu.some":    func(g *cgroup2Group) *pressure { return &g.cpuSome },
		"memory.some": func(g *cgroup2Group) *pressure { return &g.memSome },
		"memory.full": func(g *cgroup2Group) *pressure { return &g.memFull },
		"io.some":     func(g *cgroup2Group) *pressure { return &g.ioSome },
		"io.full":     func(g *cgroup2Group) *pressure { return &g.ioFull },
		"irq.full":    func(g *cgroup2Group) *pressure { return &g.irqFull },
	}[f[0]+"."+f[1]]
	if pick == nil {
		return nil
	}
	switch f[2] {
	case "avg10sec":
		return func(_ *Source, p any) (pcp.Atom, bool) { q := pick(p.(*cgroup2Group)); return psiAvg(q, q.avg10) }
	case "avg1min":
		return func(_ *Source, p any) (pcp.Atom, bool) { q := pick(p.(*cgroup2Group)); return psiAvg(q, q.avg60) }
	case "avg5min":
		return func(_ *Source, p any) (pcp.Atom, bool) { q := pick(p.(*cgroup2Group)); return psiAvg(q, q.avg300) }
	case "total":
		return func(_ *Source, p any) (pcp.Atom, bool) { return psiTotal(pick(p.(*cgroup2Group))) }
	}
	return nil
}

// bindBlkio binds cgroup.blkio.{dev,all}.KEY: sectors in kilobytes, time
// from ticks to milliseconds, the rest as counted; blkio values are always
// given (pmdaproc has no missing-value check for them).
func bindBlkio(key string, stats func(p any) *blkioStats) getter {
	switch key {
	case "sectors":
		return func(_ *Source, p any) (pcp.Atom, bool) { return pcp.Atom{ULL: stats(p).sectors >> 1}, true }
	case "time":
		return func(s *Source, p any) (pcp.Atom, bool) {
			return pcp.Atom{ULL: stats(p).time * 1000 / s.hertz}, true
		}
	}
	dot := strings.LastIndexByte(key, '.')
	if dot < 0 {
		return nil
	}
	stat, op := key[:dot], key[dot+1:]
	k := -1
	for i, f := range blkioFiles {
		if "blkio."+stat == f {
			k = i
		}
	}
	o := -1
	for i, n := range blkioOpNames {
		if strings.ToLower(n) == op {
			o = i
		}
	}
	if k < 0 || o < 0 {
		return nil
	}
	return func(_ *Source, p any) (pcp.Atom, bool) { return pcp.Atom{ULL: stats(p).ops[k][o]}, true }
}

// Fetch returns the value of metric m for instance inst, after Refresh.
// An instance without a value is pmda.ErrNoValue; a PMID this package does
// not serve is pcp.ErrPMID.
func (s *Source) Fetch(m *pmda.Metric, inst int32) (pcp.Atom, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fetch(m, inst)
}

// fetch is Fetch under s.mu.
func (s *Source) fetch(m *pmda.Metric, inst int32) (pcp.Atom, error) {
	i, ok := s.byName[m.Name]
	id := m.Desc.PMID
	if !ok || pcpDescs[i].Cluster != id.Cluster() || pcpDescs[i].Item != id.Item() {
		i, ok = s.byPMID(id)
		if !ok {
			return pcp.Atom{}, pcp.ErrPMID
		}
	}
	d := &pcpDescs[i]
	switch d.Name {
	case "cgroup.subsys.count":
		return pcp.Atom{UL: uint32(s.caches[InDomSubsys].SizeActive())}, nil
	case "cgroup.mounts.count":
		return pcp.Atom{UL: uint32(s.caches[InDomMounts].SizeActive())}, nil
	}
	return s.valueOf(i, s.getters[i], s.caches[uint32(d.InDom)], inst)
}

// valueOf is the value of row i's metric for inst of cache c.
func (s *Source) valueOf(i int, g getter, c *pmda.Cache, inst int32) (pcp.Atom, error) {
	_, state, priv, err := c.Lookup(inst)
	if err != nil {
		return pcp.Atom{}, err
	}
	if state != pmda.CacheActive || priv == nil {
		return pcp.Atom{}, pmda.ErrNoValue
	}
	switch pcpDescs[i].Name {
	case "cgroup.subsys.hierarchy":
		return pcp.Atom{UL: priv.(*subsys).hierarchy}, nil
	case "cgroup.subsys.num_cgroups":
		return pcp.Atom{UL: priv.(*subsys).numCgroups}, nil
	case "cgroup.subsys.enabled":
		return pcp.Atom{UL: priv.(*subsys).enabled}, nil
	case "cgroup.mounts.subsys":
		return pcp.Atom{CP: s.findSubsys(priv.(*filesys))}, nil
	}
	if g == nil {
		return pcp.Atom{}, pcp.ErrPMID
	}
	a, ok := g(s, priv)
	if !ok {
		return pcp.Atom{}, pmda.ErrNoValue
	}
	return a, nil
}

// byPMID finds the row of id, whatever domain id has.
func (s *Source) byPMID(id pcp.PMID) (int, bool) {
	i, ok := s.rows[pcp.NewPMID(Domain, id.Cluster(), id.Item())]
	return i, ok
}

// Instances is the instance domain's members now (after Refresh or
// RefreshInDom), in pmdaproc's order, with their labels; pcp.ErrInDom for
// a domain this package does not have.
func (s *Source) Instances(indom pcp.InDom) ([]pmda.Instance, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.caches[indom.Serial()]
	if !ok {
		return nil, pcp.ErrInDom
	}
	insts := c.Active()
	for k := range insts {
		insts[k].Labels = instLabels(indom.Serial(), insts[k].Name)
	}
	return insts, nil
}

// instLabels are pmdaproc's instance labels: the cgroup, and the device or
// CPU of the per-device and per-CPU domains.
func instLabels(serial uint32, name string) []pmda.Label {
	switch serial {
	case InDomBlkioDev, InDomCgroup2Dev:
		k := strings.LastIndexByte(name, ':')
		if k < 1 {
			return nil
		}
		return []pmda.Label{{Name: "cgroup", Value: rawString(name[:k-1])}, {Name: "device_name", Value: rawString(name[k+1:])}}
	case InDomPerCPU:
		k := strings.LastIndexByte(name, ':')
		if k < 1 || len(name) < k+4 {
			return nil
		}
		return []pmda.Label{{Name: "cgroup", Value: rawString(name[:k-1])}, {Name: "cpu", Value: rawString(name[k+4:])}}
	case InDomCpuset, InDomCpuacct, InDomCpusched, InDomMemory, InDomNetcls, InDomBlkio, InDomCgroup2:
		return []pmda.Label{{Name: "cgroup", Value: rawString(name)}}
	}
	return nil
}

// rawString is a label value written as pmdaproc writes it, between quotes
// without escaping, so that names that are not UTF-8 keep their bytes.
// Names that would need escaping to be JSON (quotes, backslashes, control
// bytes), which pmdaproc's labels cannot carry, are escaped instead.
type rawString string

func (r rawString) MarshalJSON() ([]byte, error) {
	for i := 0; i < len(r); i++ {
		if c := r[i]; c == '"' || c == '\\' || c < 0x20 {
			return json.Marshal(string(r))
		}
	}
	return []byte(`"` + string(r) + `"`), nil
}

// FetchSet is Fetch for a whole value set, in the form of
// pmda.SetFetcher's method: every instance of the metric's domain that the
// profile selects and that has a value, in the domain's order, passed to
// add. A metric without values gives pmda.ErrNoValue; a PMID this package
// does not serve pcp.ErrPMID.
func (s *Source) FetchSet(pmid pcp.PMID, pv pmda.ProfileView, add func(inst int32, t pcp.Type, a *pcp.Atom) error) error {
	i, ok := s.byPMID(pmid)
	if !ok {
		return pcp.ErrPMID
	}
	m := &s.metrics[i]
	s.mu.Lock()
	defer s.mu.Unlock()
	// The Source's own atom and list of members, kept under s.mu: a
	// local atom would escape through add, and a new list be made, on
	// every call.
	a := &s.atom
	if m.Desc.InDom == pcp.InDomNull {
		v, err := s.fetch(m, pcp.InstNull)
		if err != nil {
			return err
		}
		*a = v
		return add(pcp.InstNull, m.Desc.Type, a)
	}
	c := s.caches[m.Desc.InDom.Serial()]
	get := s.getters[i]
	n := 0
	s.active = c.AppendActive(s.active[:0])
	for _, in := range s.active {
		if !pv.Selects(m.Desc.InDom, in.ID) {
			continue
		}
		v, err := s.valueOf(i, get, c, in.ID)
		if err != nil {
			continue
		}
		*a = v
		if err := add(in.ID, m.Desc.Type, a); err != nil {
			return err
		}
		n++
	}
	if n == 0 {
		return pmda.ErrNoValue
	}
	return nil
}
