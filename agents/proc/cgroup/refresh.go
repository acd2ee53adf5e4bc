package cgroup

import (
	"os"
	"strings"
	"syscall"

	"github.com/gopcp/gopcp/pcp"
)

// need marks the clusters a request asks for (pmdaproc's need_refresh).
type need [77]bool

func (n *need) any(cs ...uint32) bool {
	for _, c := range cs {
		if n[c] {
			return true
		}
	}
	return false
}

// maxPath is PATH_MAX: pmdaproc's path buffers, deeper paths not walked.
const maxPath = 4096

// Refresh re-reads what a fetch of pmids needs, as pmdaproc's proc_refresh
// does for the cgroup clusters; PMIDs of other clusters are ignored.
func (s *Source) Refresh(pmids []pcp.PMID) {
	s.RefreshContainer(pmids, "")
}

// RefreshContainer is Refresh for a client that named a container:
// cgroup is the container's cgroup path (what pmdaproc asks pmdaroot for),
// and only cgroups whose path below the mount starts with it, or whose
// last component does, are read and become instances, as in pmdaproc's
// check_refresh. The walk still visits every cgroup. An empty cgroup is
// every cgroup, as Refresh.
func (s *Source) RefreshContainer(pmids []pcp.PMID, cgroup string) {
	var n need
	for _, id := range pmids {
		if c := id.Cluster(); HasCluster(c) {
			n[c] = true
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.container = cgroup
	s.refresh(&n)
	s.container = ""
}

// wanted is check_refresh: whether the cgroup at rel (its path below the
// mount) is read for the container being refreshed for.
func (s *Source) wanted(rel string) bool {
	if s.container == "" {
		return true
	}
	rel = strings.TrimLeft(rel, "/")
	base := rel
	if k := strings.LastIndexByte(rel, '/'); k >= 0 {
		base = rel[k+1:]
	}
	return strings.HasPrefix(rel, s.container) || strings.HasPrefix(base, s.container)
}

// RefreshInDom re-reads what an instance request for indom needs
// (pmdaproc's proc_instance): the cluster of the domain; nothing for the
// cgroup2 domains, which pmdaproc does not refresh there.
func (s *Source) RefreshInDom(indom pcp.InDom) {
	s.RefreshInDomContainer(indom, "")
}

// RefreshInDomContainer is RefreshInDom for a client that named a
// container, whose cgroup is read as RefreshContainer reads it.
func (s *Source) RefreshInDomContainer(indom pcp.InDom, cgroup string) {
	var n need
	switch indom.Serial() {
	case InDomCpuset:
		n[ClusterCpuset] = true
	case InDomCpuacct, InDomPerCPU:
		n[ClusterCpuacct] = true
	case InDomCpusched:
		n[ClusterCpusched] = true
	case InDomMemory:
		n[ClusterMemory] = true
	case InDomNetcls:
		n[ClusterNetcls] = true
	case InDomBlkio, InDomBlkioDev:
		n[ClusterBlkio] = true
	case InDomSubsys:
		n[ClusterSubsys] = true
	case InDomMounts:
		n[ClusterMounts] = true
	default:
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.container = cgroup
	s.refresh(&n)
	s.container = ""
}

func (s *Source) refresh(n *need) {
	if !n.any(clusters...) {
		return
	}
	// pmdaproc re-reads /proc/cgroups and /proc/mounts only until it has
	// seen a cgroup2-only host.
	if s.version < 2 {
		s.refreshSubsys()
		s.refreshMounts()
	}
	if s.version < 2 {
		s.refreshV1(n)
	} else {
		s.refreshV2(n)
	}
	s.trim()
}

// refreshV1 is refresh_cgroups1: each v1 cluster over its mounts.
func (s *Source) refreshV1(n *need) {
	if n[ClusterBlkio] {
		s.refreshDevices()
	}
	type walk struct {
		cluster uint32
		subsys  string
		indoms  []uint32
		fn      func(dir, name string)
	}
	walks := []walk{
		{ClusterCpuset, "cpuset", []uint32{InDomCpuset}, s.refreshCpuset},
		{ClusterCpuacct, "cpuacct", []uint32{InDomCpuacct, InDomPerCPU}, s.refreshCpuacct},
		{ClusterCpusched, "cpu", []uint32{InDomCpusched}, s.refreshCpusched},
		{ClusterMemory, "memory", []uint32{InDomMemory}, s.refreshMemory},
		// pmdaproc looks for "netcls", which no v1 mount's options name
		// (the controller is net_cls), so only cgroup2 mounts are walked.
		{ClusterNetcls, "netcls", []uint32{InDomNetcls}, s.refreshNetcls},
		{ClusterBlkio, "blkio", []uint32{InDomBlkio, InDomBlkioDev}, s.refreshBlkio},
	}
	for _, w := range walks {
		if !n[w.cluster] {
			continue
		}
		s.eachMount(w.subsys, func() {
			for _, d := range w.indoms {
				s.caches[d].DeactivateAll()
			}
		}, w.fn)
	}
}

// eachMount is refresh_cgroups: for every active mount in cache order that
// carries subsys (every cgroup2 mount; a cgroup mount whose options name
// it), setup, then refresh for each cgroup below it.
func (s *Source) eachMount(subsys string, setup func(), refresh func(dir, name string)) {
	for _, inst := range s.caches[InDomMounts].Active() {
		_, _, priv, err := s.caches[InDomMounts].Lookup(inst.ID)
		fs, _ := priv.(*filesys)
		if err != nil || fs == nil {
			continue
		}
		if fs.version == 1 && !hasOption(fs.options, subsys) {
			continue
		}
		setup()
		s.walk(fs.path, refresh)
	}
}

// walk visits the mount's directory and every directory below it, in
// directory order, depth first, as cgroup_scan does: refresh is given the
// directory and its cgroup name ("/" for the mount, "/a/b" below it). At
// most MaxCgroups directories are visited; paths longer than PATH_MAX and
// entries that are not directories (symbolic links included) are skipped.
func (s *Source) walk(mnt string, refresh func(dir, name string)) {
	budget := s.max
	top := s.root + mnt
	if len(top) >= maxPath {
		return
	}
	var buf []byte
	// each handles the entries of dir, which has the cgroup path rel.
	var each func(dir, rel string, ents []dirent)
	each = func(dir, rel string, ents []dirent) {
		for _, e := range ents {
			name := e.name
			if name == "" || name[0] == '.' || e.typ == syscall.DT_REG {
				continue
			}
			sub := dir + "/" + name
			if len(sub) >= maxPath {
				continue
			}
			if e.typ == syscall.DT_UNKNOWN {
				// file systems without d_type: stat, as pmdaproc does
				st, err := os.Stat(sub)
				if err != nil || !st.IsDir() {
					continue
				}
			} else if e.typ != syscall.DT_DIR {
				continue
			}
			if budget <= 0 {
				return
			}
			budget--
			r := name
			if rel != "" {
				r = rel + "/" + name
			}
			if s.wanted(r) {
				refresh(sub, cgroupName(r))
			}
			var sents []dirent
			var ok bool
			if sents, buf, ok = readDir(sub, buf, nil); ok {
				each(sub, r, sents)
			}
		}
	}
	ents, b, ok := readDir(top, buf, nil)
	buf = b
	if !ok || budget <= 0 {
		return // opendir fails: nothing from this mount
	}
	budget--
	if s.wanted("") {
		refresh(top, "/")
	}
	each(top, "", ents)
}

// Version is pmdaproc's cgroup_version: 2 on a host with only cgroup2
// mounts, 1 when any v1 hierarchy is mounted (hybrid hosts included),
// reading /proc/mounts first if no refresh has yet (as pmdaproc's process
// list does for its cgroup option); 0 when /proc/mounts cannot be read.
func (s *Source) Version() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.version == 0 {
		s.refreshMounts()
	}
	return s.version
}
