package cgroup

// refreshV2 is refresh_cgroups2 on a cgroup2-only host: one walk of every
// mount, each cgroup read for the v2 clusters asked for and then for the
// v1 ones as pmdaproc's refresh_all reads them.
func (s *Source) refreshV2(n *need) {
	v2 := n.any(ClusterCPUPressure, ClusterCPUStat, ClusterIOPressure, ClusterIOStat, ClusterMemPressure)
	s.eachMount("", func() { s.setupAll(n, v2) }, func(dir, name string) { s.refreshAll(n, dir, name) })
}

// setupAll is pmdaproc's setup_all, run before each mount's walk. The
// cgroup2 domain is made inactive only for the clusters it names, not for
// the irq pressure alone, so such a fetch re-reads nothing, as in PCP.
func (s *Source) setupAll(n *need, v2 bool) {
	if n[ClusterIOStat] || n[ClusterBlkio] {
		s.refreshDevices()
	}
	if v2 {
		s.caches[InDomCgroup2].DeactivateAll()
		if n[ClusterIOStat] {
			s.caches[InDomCgroup2Dev].DeactivateAll()
		}
	}
	if n[ClusterCpuset] {
		s.caches[InDomCpuset].DeactivateAll()
	}
	if n[ClusterCpuacct] {
		s.caches[InDomCpuacct].DeactivateAll()
		s.caches[InDomPerCPU].DeactivateAll()
	}
	if n[ClusterCpusched] {
		s.caches[InDomCpusched].DeactivateAll()
	}
	if n[ClusterMemory] {
		s.caches[InDomMemory].DeactivateAll()
	}
	if n[ClusterNetcls] {
		s.caches[InDomNetcls].DeactivateAll()
	}
	if n[ClusterBlkio] {
		s.caches[InDomBlkio].DeactivateAll()
		s.caches[InDomBlkioDev].DeactivateAll()
	}
}

// rOK is access(2)'s R_OK.
const rOK = 4

// refreshAll is pmdaproc's refresh_all for one cgroup. Its cpuset and
// cpuacct reads look for their files below "DIR/cpuset.cpus" and
// "DIR/cpuacct.cpus", which are files, so on a cgroup2-only host those
// clusters have empty strings and no usage, as PCP gives.
func (s *Source) refreshAll(n *need, dir, name string) {
	esc := unescape(name)
	if g := record[cgroup2Group](s, InDomCgroup2, esc); g != nil {
		var unused pressure
		if n[ClusterCPUPressure] {
			s.readPressures(s.at(dir, "/cpu.pressure"), &g.cpuSome, &unused, psiSome)
		}
		if n[ClusterCPUStat] {
			s.readCPUTime(s.at(dir, "/cpu.stat"), g)
		}
		if n[ClusterIOPressure] {
			s.readPressures(s.at(dir, "/io.pressure"), &g.ioSome, &g.ioFull, psiSome|psiFull)
		}
		if n[ClusterIOStat] {
			s.readIOStat(s.at(dir, "/io.stat"), name)
		}
		if n[ClusterMemPressure] {
			s.readPressures(s.at(dir, "/memory.pressure"), &g.memSome, &g.memFull, psiSome|psiFull)
		}
		if n[ClusterIRQPressure] {
			s.readPressures(s.at(dir, "/irq.pressure"), &unused, &g.irqFull, psiFull)
		}
		g.container = containerID(name)
		s.add(InDomCgroup2, esc, g)
	}
	if n[ClusterCpuset] && s.readable(dir) {
		s.refreshCpuset(dir+"/cpuset.cpus", name)
	}
	if n[ClusterCpuacct] && s.readable(dir) {
		s.refreshCpuacct(dir+"/cpuacct.cpus", name)
	}
	if n[ClusterCpusched] && s.readable(s.at(dir, "/cpu.shares")) {
		s.refreshCpusched(dir, name)
	}
	if n[ClusterMemory] && s.readable(s.at(dir, "/memory.stat")) {
		s.refreshMemory(dir, name)
	}
	if n[ClusterNetcls] && s.readable(s.at(dir, "/net_cls.classid")) {
		s.refreshNetcls(dir, name)
	}
	if n[ClusterBlkio] && s.readable(s.at(dir, "/blkio.time")) {
		s.refreshBlkio(dir, name)
	}
}
