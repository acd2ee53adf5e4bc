package cgroup

import (
	"sync"

	"github.com/gopcp/gopcp/agents/internal/pcpdesc"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
)

// Domain is pmdaproc's PMID domain.
const Domain = 3

// The PMID clusters of the cgroup metrics (pmdaproc's clusters.h).
const (
	ClusterSubsys      = 37
	ClusterMounts      = 38
	ClusterCpuset      = 39
	ClusterCpuacct     = 41
	ClusterCpusched    = 43
	ClusterMemory      = 45
	ClusterNetcls      = 47
	ClusterBlkio       = 49
	ClusterCPUPressure = 64
	ClusterIOPressure  = 65
	ClusterMemPressure = 66
	ClusterCPUStat     = 67
	ClusterIOStat      = 68
	ClusterIRQPressure = 76
)

// The instance domain serials (pmdaproc's indom.h).
const (
	InDomCgroup2    = 16
	InDomCgroup2Dev = 17
	InDomCpuset     = 20
	InDomCpuacct    = 21
	InDomPerCPU     = 22
	InDomCpusched   = 23
	InDomMemory     = 24
	InDomNetcls     = 25
	InDomBlkio      = 26
	InDomBlkioDev   = 27
	InDomSubsys     = 37
	InDomMounts     = 38
)

var clusters = []uint32{ClusterSubsys, ClusterMounts, ClusterCpuset, ClusterCpuacct, ClusterCpusched,
	ClusterMemory, ClusterNetcls, ClusterBlkio, ClusterCPUPressure, ClusterIOPressure,
	ClusterMemPressure, ClusterCPUStat, ClusterIOStat, ClusterIRQPressure}

var indoms = []uint32{InDomCgroup2, InDomCgroup2Dev, InDomCpuset, InDomCpuacct, InDomPerCPU,
	InDomCpusched, InDomMemory, InDomNetcls, InDomBlkio, InDomBlkioDev, InDomSubsys, InDomMounts}

// HasCluster reports whether PMIDs of cluster are this package's.
func HasCluster(cluster uint32) bool {
	for _, c := range clusters {
		if c == cluster {
			return true
		}
	}
	return false
}

// HasInDom reports whether the instance domain serial is this package's.
func HasInDom(serial uint32) bool {
	for _, s := range indoms {
		if s == serial {
			return true
		}
	}
	return false
}

// pcpDesc is one row of the generated table.
type pcpDesc pcpdesc.Row

// desc is the row's descriptor in the package's domain.
func (d *pcpDesc) desc() pcp.Desc { return (*pcpdesc.Row)(d).Desc(Domain) }

// DefaultMaxCgroups bounds the cgroups one walk of one mount visits.
const DefaultMaxCgroups = 1 << 16

// Options configure a Source.
type Options struct {
	// Root is put before every path read (/proc/cgroups, /proc/mounts,
	// /proc/diskstats and the mount points /proc/mounts names), as PCP's
	// PROC_STATSPATH is: "" reads the live system, a directory reads a
	// fixture tree laid out like /.
	Root string
	// MaxCgroups bounds the cgroups visited per mount walk; 0 means
	// DefaultMaxCgroups.
	MaxCgroups int
	// Hertz is the kernel's clock tick (blkio times are in ticks); 0
	// means 100, Linux's USER_HZ.
	Hertz uint64
}

// Source holds one agent's cgroup state; it is safe for concurrent use.
type Source struct {
	root    string
	max     int
	hertz   uint64
	byName  map[string]int   // metric name to row
	rows    map[pcp.PMID]int // PMID (in Domain) to row
	metrics []pmda.Metric

	mu      sync.Mutex
	version int // 0 before the first mount scan, then 1 or 2 (pmdaproc's cgroup_version)
	caches  map[uint32]*pmda.Cache
	devt    map[uint64]devName // devKey(major, minor) to disk name
	devtGen uint32             // refreshDevices' count
	// lastCpuacct is pmdaproc's static cpuacct.stat buffer, whose fields
	// carry over from one cgroup's file to the next one's.
	lastCpuacct cpuacctStat
	buf         []byte
	getters     []getter                       // by row of pcpDescs
	seen        map[uint32]map[string]struct{} // names added, by domain (trim)
	container   string                         // the cgroup RefreshContainer reads for, or ""
	atom        pcp.Atom                       // the value FetchSet hands to add
	zbuf, atBuf []byte                         // paths being opened (open, at)
	keyBuf      []byte                         // instance names being made (instName)
	mountList   []pmda.Instance                // the mounts eachMount walks
	// What walks keep: the trees of cgroups seen, by mount, and their
	// number; the walk's count; directory listings by depth.
	walkTops  map[string]*walkNode
	walkNodes int
	walkGen   uint64
	dirBufs   [][]byte
	dirEnts   [][]dirent
	active    []pmda.Instance // the members FetchSet lists
}

// New returns a Source reading under opts.Root.
func New(opts Options) *Source {
	s := &Source{root: opts.Root, max: opts.MaxCgroups, hertz: opts.Hertz, byName: map[string]int{}, rows: map[pcp.PMID]int{}}
	if s.max <= 0 {
		s.max = DefaultMaxCgroups
	}
	if s.hertz == 0 {
		s.hertz = 100
	}
	s.caches = make(map[uint32]*pmda.Cache, len(indoms))
	s.seen = make(map[uint32]map[string]struct{}, len(indoms))
	for _, serial := range indoms {
		s.caches[serial] = pmda.NewCache(pcp.NewInDom(Domain, serial))
	}
	for i := range pcpDescs {
		d := &pcpDescs[i]
		s.byName[d.Name] = i
		s.rows[d.desc().PMID] = i
		one, full := helpFor(d.Name)
		s.metrics = append(s.metrics, pmda.Metric{Name: d.Name, Desc: d.desc(), OneLine: one, Help: full})
		s.getters = append(s.getters, s.bind(d.Name))
	}
	return s
}

// Metrics is the metric table of every cgroup.* metric, a copy the
// caller may change (help texts, say).
func (s *Source) Metrics() []pmda.Metric {
	return append([]pmda.Metric(nil), s.metrics...)
}

// InDoms is the instance domain table: no instances (they come from
// Instances), with pmdaproc's domain labels.
func (s *Source) InDoms() []pmda.InDom {
	out := make([]pmda.InDom, 0, len(indoms))
	for _, serial := range indoms {
		out = append(out, pmda.InDom{InDom: pcp.NewInDom(Domain, serial), Labels: indomLabels(serial),
			OneLine: indomHelp.get()[serial], Help: upper(indomHelp.get()[serial]) + "."})
	}
	return out
}

// indomLabels are pmdaproc's instance domain labels.
func indomLabels(serial uint32) []pmda.Label {
	var t string
	switch serial {
	case InDomCpuset, InDomCpuacct, InDomCpusched, InDomPerCPU:
		t = "cpu"
	case InDomMemory:
		t = "memory"
	case InDomNetcls:
		t = "interface"
	case InDomBlkio, InDomCgroup2Dev, InDomBlkioDev:
		t = "block"
	default:
		return nil
	}
	return []pmda.Label{{Name: "device_type", Value: t}}
}
