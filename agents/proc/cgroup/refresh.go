package cgroup

import (
	"os"
	"strings"
	"syscall"
	"unsafe"

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
	s.mountList = s.caches[InDomMounts].AppendActive(s.mountList[:0])
	for _, inst := range s.mountList {
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

// walkNode is a directory a walk visited, with the strings a refresh is
// given: made when the cgroup is first seen and kept while it is there,
// so that a steady walk makes none.
type walkNode struct {
	dir  string // its path, the root and mount before it
	rel  string // its path below the mount ("" for the mount)
	name string // its cgroup name ("/" for the mount, "/a/b" below it)
	kids map[string]*walkNode
	gen  uint64 // the walk that last visited it
}

// maxWalkTops bounds the mounts whose trees are kept between walks.
const maxWalkTops = 256

// walk visits the mount's directory and every directory below it, in
// directory order, depth first, as cgroup_scan does: refresh is given the
// directory and its cgroup name ("/" for the mount, "/a/b" below it). At
// most MaxCgroups directories are visited; paths longer than PATH_MAX and
// entries that are not directories (symbolic links included) are skipped.
func (s *Source) walk(mnt string, refresh func(dir, name string)) {
	top := s.walkTops[mnt]
	if top == nil {
		dir := s.root + mnt
		if len(dir) >= maxPath {
			return
		}
		if s.walkTops == nil || len(s.walkTops) >= maxWalkTops {
			s.walkTops, s.walkNodes = map[string]*walkNode{}, 0
		}
		top = &walkNode{dir: dir, name: "/"}
		s.walkTops[mnt] = top
	}
	s.walkGen++
	defer s.trimDirBufs()
	budget := s.max
	ents, ok := s.readDirAt(top.dir, 0)
	if !ok || budget <= 0 {
		return // opendir fails: nothing from this mount
	}
	budget--
	top.gen = s.walkGen
	if s.wanted("") {
		refresh(top.dir, "/")
	}
	s.walkEach(top, ents, 0, &budget, refresh)
	// The kept trees are bounded by what walks visit; a walk cut short
	// by its budget prunes nothing, so past twice the budget they go.
	if s.walkNodes > 2*s.max {
		s.walkTops, s.walkNodes = nil, 0
	}
}

// walkEach handles the entries of n's directory, at depth, and below.
func (s *Source) walkEach(n *walkNode, ents []dirent, depth int, budget *int, refresh func(dir, name string)) {
	seen := 0
	for _, e := range ents {
		name := e.name // in the directory's buffer: cloned to be kept
		if name == "" || name[0] == '.' || e.typ == syscall.DT_REG {
			continue
		}
		kid := n.kids[name]
		sub := ""
		if kid != nil {
			sub = kid.dir
		} else {
			sub = n.dir + "/" + name
			if len(sub) >= maxPath {
				continue
			}
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
		if *budget <= 0 {
			return
		}
		*budget--
		if kid == nil {
			name = strings.Clone(name)
			rel := name
			if n.rel != "" {
				rel = n.rel + "/" + name
			}
			kid = &walkNode{dir: sub, rel: rel, name: cgroupName(rel)}
			if n.kids == nil {
				n.kids = map[string]*walkNode{}
			}
			n.kids[name] = kid
			s.walkNodes++
		}
		kid.gen = s.walkGen
		seen++
		if s.wanted(kid.rel) {
			refresh(kid.dir, kid.name)
		}
		if sents, ok := s.readDirAt(kid.dir, depth+1); ok {
			s.walkEach(kid, sents, depth+1, budget, refresh)
		}
	}
	if seen < len(n.kids) { // some went: forget them, and all below
		for k, kid := range n.kids {
			if kid.gen != s.walkGen {
				delete(n.kids, k)
				s.walkNodes -= kid.count()
			}
		}
	}
}

// count is the number of nodes at and below n.
func (n *walkNode) count() int {
	c := 1
	for _, k := range n.kids {
		c += k.count()
	}
	return c
}

// readDirAt lists dir into the buffers of depth, which the entries' names
// share until the next listing at that depth.
func (s *Source) readDirAt(dir string, depth int) ([]dirent, bool) {
	for len(s.dirBufs) <= depth {
		s.dirBufs = append(s.dirBufs, nil)
		s.dirEnts = append(s.dirEnts, nil)
	}
	fd, errno := s.open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC)
	if errno != 0 {
		return nil, false
	}
	ents, buf := readDirFD(fd, s.dirBufs[depth], s.dirEnts[depth][:0], maxDirBytes)
	syscall.Close(fd)
	s.dirBufs[depth], s.dirEnts[depth] = buf, ents
	return ents, true
}

// trimDirBufs, after a walk, lets go of what its listings held: every
// entry (their names point into the buffers) and the buffers and tables
// larger than maxKeptDirBuf, so that a large directory listed once is not
// held until the next walk, or for good at a depth no later walk reaches.
func (s *Source) trimDirBufs() {
	for d := range s.dirBufs {
		if cap(s.dirBufs[d]) > maxKeptDirBuf {
			s.dirBufs[d] = nil
		}
		ents := s.dirEnts[d]
		if cap(ents)*int(unsafe.Sizeof(dirent{})) > maxKeptDirBuf {
			s.dirEnts[d] = nil
			continue
		}
		clear(ents[:cap(ents)])
	}
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
