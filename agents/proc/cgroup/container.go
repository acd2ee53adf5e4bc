package cgroup

// ContainerPath is pmdaproc's cgroup_container_path: where the cgroup of
// a container (the name pmdaroot gives, relative to the hierarchy) is,
// as a path that starts with Root, for the process list to read its
// processes from. On a cgroup2-only host it is below the cgroup2 mount's
// machine.slice; otherwise below the v1 mount whose subsystems are
// memory alone, the first in the mounts' order. /proc/cgroups and
// /proc/mounts are read first while the host is not known to be
// cgroup2-only, as pmdaproc's refresh for a container client reads them.
// With no such mount the answer is "", a path with no processes.
func (s *Source) ContainerPath(cgroup string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.version < 2 {
		s.refreshSubsys()
		s.refreshMounts()
	}
	for _, inst := range s.caches[InDomMounts].Active() {
		_, _, priv, err := s.caches[InDomMounts].Lookup(inst.ID)
		fs, _ := priv.(*filesys)
		if err != nil || fs == nil {
			continue
		}
		switch {
		case s.version > 1 && fs.version > 1:
			return s.root + fs.path + "/machine.slice/" + cgroup
		case s.version == 1 && s.findSubsys(fs) == "memory":
			return s.root + fs.path + "/" + cgroup
		}
	}
	return ""
}
