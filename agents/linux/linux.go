package linux

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gopcp/gopcp/agents/internal/pcpdesc"
	"github.com/gopcp/gopcp/internal/dirent"
	"github.com/gopcp/gopcp/internal/pcpconf"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmda"
)

// Domain is the Linux agent's domain number, LINUX in PCP's domain list.
const Domain = 60

// Name is the agent's name, as its daemon is called.
const Name = "pmdalinux"

// Options configures the agent.
type Options struct {
	// StatsPath is the directory the /proc, /sys and /etc trees are read
	// under, $LINUX_STATSPATH for PCP's agent (see EnvOptions); empty
	// means the root.
	StatsPath string
	// ProcRoot and SysRoot are where /proc and /sys are read from. Empty
	// means StatsPath's proc and sys.
	ProcRoot, SysRoot string
	// BandwidthConf is the per-node memory bandwidth file behind
	// mem.numa.max_bandwidth; empty means PCP_PMDAS_DIR/linux/bandwidth.conf,
	// PCP_PMDAS_DIR as pmGetConfig gives it (internal/pcpconf), else
	// /var/lib/pcp/pmdas.
	BandwidthConf string
	// UtmpPath is the login records file (kernel.all.nusers, ...); empty
	// means /var/run/utmp.
	UtmpPath string
	// InterfacesConf holds the pattern of interface names network.all
	// leaves out; empty means PCP_SYSCONF_DIR/linux/interfaces.conf
	// (pmGetConfig's, else /etc/pcp), and without that file PCP's default
	// pattern.
	InterfacesConf string
	// EtcRoot is where the distribution's release files are read
	// (kernel.uname.distro); empty means StatsPath's etc.
	EtcRoot string
	// MdadmPath is the mdadm program whose presence disk.md.status
	// depends on, $LINUX_MDADM for PCP's agent; empty means /sbin/mdadm.
	MdadmPath string
	// CacheDir is where PCP's agent keeps its instance cache files, read
	// at start so that instances keep the numbers PCP's agent gave them,
	// and rewritten, as PCP's agent does, when devices and other changing
	// instances are added; empty means $PCP_VAR_DIR/config/pmda. NoCache
	// neither reads nor writes them.
	CacheDir string
	NoCache  bool
	// AllAccess serves the root-only metrics (mem.slabinfo, tty.serial) to
	// every client, as PCP's agent does with -A or a non-zero
	// $LINUX_ACCESS.
	AllAccess bool
	// Log receives the agent's reports; nil discards them.
	Log *log.Logger
}

// pcpDesc is one row of pcpDescs.
type pcpDesc pcpdesc.Row

// desc is the row's descriptor in domain.
func (d *pcpDesc) desc(domain uint32) pcp.Desc { return (*pcpdesc.Row)(d).Desc(domain) }

// getter answers one metric for one instance (pcp.InstNull without an
// instance domain) from the data the last refresh parsed.
type getter func(inst int32) (pcp.Atom, error)

// binding is how the agent serves one metric: the source its refresh
// needs, and how a value is read.
type binding struct {
	src source
	get getter
	// needs are the parts of src's refresh only this metric's value
	// needs (needScheduler, needZramStats): a refresh does them only
	// when a requested metric does.
	needs uint8
	// indom is the serial of the metric's instance domain, or -1.
	indom int32
}

// Linux is the agent's Fetcher: the parsed state of every source and the
// metric bindings.
type Linux struct {
	proc, sys string
	etc       string
	log       *log.Logger
	hz        uint64 // the kernel's USER_HZ, ticks per second in /proc/stat
	pageSize  uint64

	fb         fileBuf
	dir        dirent.List // directory listings
	mounts     mountsText
	refreshes  uint64    // refreshes begun, which tells one refresh's reads from the next's
	pc         pathCalls // stat-like calls on paths
	fields     [][]byte
	scratch    []byte
	onlinePath []byte
	prefix     []byte

	cacheDir string
	noCache  bool
	mdadm    string // the program whose presence disk.md.status depends on
	access   clientAccess
	denied   bool // this fetch's client may not see the root-only metrics

	// bindings are the metrics' bindings, in pcpDescs' order: a row
	// without a getter is not served. A slice the table's length, not
	// a map by name, as the agent is built at every -L start.
	bindings []binding
	// unknownBind is a name bound that PCP has no metric of, refused
	// when the agent is made.
	unknownBind string
	byPMID      pmidTable
	sources     [numSources]func() error
	errs        [numSources]error
	// refreshed has a bit for each source read at least once; indomSrcs
	// the sources whose metrics use each instance domain. An instance
	// request reads what its domain needs if no fetch has yet, as PCP's
	// agent reads its tables at first use, not at start-up.
	refreshed uint64
	indomSrcs [numInDoms]uint64
	indoms    [numInDoms]indomTable
	declared  [numInDoms]bool

	stat       statData
	mem        kvData
	vm         kvData
	vmTotals   vmstatData
	load       loadData
	uptime     uptimeData
	disks      diskData
	netdev     netDevData
	netaddr    netAddrData
	snmp       kvData
	snmp6      kvData
	filesys    filesysData
	swaps      swapsData
	cpuinfo    cpuinfoData
	uname      unameData
	pressure   pressureData
	softirqs   softirqData
	interrupts interruptData
	sysk       sysKernelData
	sockstat   kvData
	softnet    softnetData
	buddy      buddyData
	ksm        kvData
	nodes      nodeData
	zones      zoneData
	numa       numaData
	slabs      slabData
	hw         hardwareData
	bandwidth  bandwidthConf
	ipc        ipcData
	vfs        [9]int64
	login      [3]uint64
	netAll     netAllData
	rpc        rpcData
	scsiDev    []string
	ttys       []ttyLine
	tapes      []tapeDev
	utmp       string
	conns      connData
	fchosts    []fcHost
	nfsd       nfsdData
	extfrag    extfragData
}

// New returns the Linux agent for domain (normally Domain).
func New(domain uint32, opts Options) (*pmda.Agent, error) {
	x, err := newLinux(opts)
	if err != nil {
		return nil, err
	}
	return x.agent(domain)
}

// EnvOptions is the Options PCP's agent takes from its environment,
// given the edge's getenv (os.Getenv in cmd/pmdalinux and in the
// in-process registration): StatsPath from LINUX_STATSPATH, MdadmPath
// from LINUX_MDADM, AllAccess from a LINUX_ACCESS that is a non-zero
// number.
func EnvOptions(getenv func(string) string) Options {
	o := Options{StatsPath: getenv("LINUX_STATSPATH"), MdadmPath: getenv("LINUX_MDADM")}
	if v := getenv("LINUX_ACCESS"); v != "" {
		n, _ := strconv.Atoi(v)
		o.AllAccess = n != 0
	}
	return o
}

func newLinux(opts Options) (*Linux, error) {
	base := opts.StatsPath
	x := &Linux{
		proc:     opts.ProcRoot,
		sys:      opts.SysRoot,
		etc:      opts.EtcRoot,
		cacheDir: opts.CacheDir,
		access:   clientAccess{all: opts.AllAccess},
		noCache:  opts.NoCache,
		log:      opts.Log,
		bindings: make([]binding, len(pcpDescs)),
	}
	if x.proc == "" {
		x.proc = filepath.Join(base, "/proc")
	}
	// Socket diagnostics see this process's network namespace, which is
	// what this host's own /proc/net shows, and no other tree's.
	x.conns.useDiag = x.proc == "/proc"
	if x.sys == "" {
		x.sys = filepath.Join(base, "/sys")
	}
	x.bandwidth.path = opts.BandwidthConf
	if x.bandwidth.path == "" {
		dir, ok := pcpconf.Get("PCP_PMDAS_DIR")
		if !ok || dir == "" {
			dir = "/var/lib/pcp/pmdas"
		}
		x.bandwidth.path = filepath.Join(dir, "linux", "bandwidth.conf")
	}
	x.utmp = opts.UtmpPath
	if x.utmp == "" {
		x.utmp = "/var/run/utmp"
	}
	ifconf := opts.InterfacesConf
	if ifconf == "" {
		dir, ok := pcpconf.Get("PCP_SYSCONF_DIR")
		if !ok || dir == "" {
			dir = "/etc/pcp"
		}
		ifconf = filepath.Join(dir, "linux", "interfaces.conf")
	}
	x.netAll.conf = ifconf
	x.mdadm = opts.MdadmPath
	if x.mdadm == "" {
		x.mdadm = "/sbin/mdadm"
	}
	if x.etc == "" {
		x.etc = filepath.Join(base, "/etc")
	}
	if x.log == nil {
		x.log = log.New(io.Discard, "", 0)
	}
	x.hz = x.userHZ()
	x.pageSize = uint64(os.Getpagesize())
	x.bindAll()
	x.setInstanceLabels()
	if x.unknownBind != "" {
		return nil, fmt.Errorf("linux: %s is bound but PCP has no such metric", x.unknownBind)
	}
	return x, nil
}

// agent builds the pmda.Agent over x. It reads no source: a fetch reads
// what it needs and an instance request what its domain needs (firstUse).
func (x *Linux) agent(domain uint32) (*pmda.Agent, error) {
	metrics := x.servedTable(domain)
	if metrics == nil {
		metrics = x.buildMetrics(domain)
	}
	x.byPMID = pmidTable{domain: domain}
	// The table's rows are made in one allocation, not grown item by
	// item: the agent is built at every -L start.
	var rows []int
	for i := range pcpDescs {
		if d := &pcpDescs[i]; x.bindings[i].get != nil {
			for len(rows) <= int(d.Cluster) {
				rows = append(rows, 0)
			}
			rows[d.Cluster] = max(rows[d.Cluster], int(d.Item)+1)
		}
	}
	x.byPMID.reserve(rows)
	for i := range pcpDescs {
		d := &pcpDescs[i]
		b := &x.bindings[i]
		if b.get == nil {
			continue
		}
		b.indom = d.InDom
		x.byPMID.add(pcp.NewPMID(domain, d.Cluster, d.Item), b)
		if d.InDom >= 0 {
			x.declared[d.InDom] = true
			x.indomSrcs[d.InDom] |= 1 << b.src
		}
	}
	var indoms []pmda.InDom
	labels := indomLabels()
	for serial, used := range x.declared {
		if used {
			indoms = append(indoms, pmda.InDom{InDom: pcp.NewInDom(domain, uint32(serial)), Labels: labels[serial]})
		}
	}
	if !x.noCache {
		x.seedInstanceNumbers(domain, x.cacheDir)
	}
	return pmda.New(pmda.Config{
		Name:    Name,
		Domain:  domain,
		Metrics: metrics,
		// Made for this agent alone.
		MetricsOwned: true,
		InDoms:       indoms,
		Fetcher:      x,
		// Client user ids (for the root-only metrics) and containers, as
		// PCP's agent asks them of pmcd.
		Flags: pdu.FlagAuth | pdu.FlagContainer,
		Log:   x.log,
	})
}

// buildMetrics is the metric table of an agent of domain: PCP's rows
// that have a binding, in pcpDescs' order. One allocation: the agent is
// built at every -L start.
func (x *Linux) buildMetrics(domain uint32) []pmda.Metric {
	served := 0
	for i := range x.bindings {
		if x.bindings[i].get != nil {
			served++
		}
	}
	metrics := make([]pmda.Metric, 0, served)
	for i := range pcpDescs {
		if d := &pcpDescs[i]; x.bindings[i].get != nil {
			metrics = append(metrics, pmda.Metric{Name: d.Name, Desc: d.desc(domain), Labels: itemLabels(d.Name)})
		}
	}
	return metrics
}

// servedTable is servedMetrics when domain is Domain and the table holds
// the bound rows, which TestServedMetricsTable checks as a whole; nil
// otherwise. The table is shared by every agent of Domain in the
// process, so nothing may write to it: pmda.New leaves a table already
// in its domain as it is.
func (x *Linux) servedTable(domain uint32) []pmda.Metric {
	if domain != Domain {
		return nil
	}
	j := 0
	for i := range pcpDescs {
		if x.bindings[i].get == nil {
			continue
		}
		if j >= len(servedMetrics) || servedMetrics[j].Name != pcpDescs[i].Name {
			return nil
		}
		j++
	}
	if j != len(servedMetrics) {
		return nil
	}
	return servedMetrics
}

// findDesc returns PCP's row for name, or nil.
func findDesc(name string) *pcpDesc {
	if i := descIndex(name); i >= 0 {
		return &pcpDescs[i]
	}
	return nil
}

// descIndex is the index of PCP's row for name, or -1. The rows are
// sorted by name (TestDescsSorted): the agent looks up each of its
// bindings at every start.
func descIndex(name string) int {
	i, ok := slices.BinarySearchFunc(pcpDescs, name, func(d pcpDesc, name string) int { return strings.Compare(d.Name, name) })
	if !ok {
		return -1
	}
	return i
}

// bind registers how the metric called name is served.
func (x *Linux) bind(name string, src source, get getter) {
	x.setBinding(name, binding{src: src, get: get})
}

// setBinding files b as name's binding, or notes name as unknown.
func (x *Linux) setBinding(name string, b binding) {
	i := descIndex(name)
	if i < 0 {
		if x.unknownBind == "" {
			x.unknownBind = name
		}
		return
	}
	x.bindings[i] = b
}

// boundAt is the binding of pcpDescs[i], and whether the metric is
// served.
func (x *Linux) boundAt(i int) (binding, bool) {
	return x.bindings[i], x.bindings[i].get != nil
}

// Parts of a source's refresh that only some of its metrics need.
const (
	needScheduler uint8 = 1 << iota // each disk's queue/scheduler
	needZramStats                   // each zram device's io_stat, mm_stat and bd_stat
)

// bindNeeding binds name to a value made from a part of src's refresh
// that only such metrics need.
func (x *Linux) bindNeeding(name string, src source, needs uint8, get getter) {
	x.setBinding(name, binding{src: src, get: get, needs: needs})
}

// bindKnown binds name only if PCP has such a metric: for names made by
// combining parts, where not every combination exists.
func (x *Linux) bindKnown(name string, src source, get getter) {
	if findDesc(name) != nil {
		x.bind(name, src, get)
	}
}

// refreshSource reads one source, keeping its error for the values that
// depend on it.
func (x *Linux) refreshSource(s source) {
	if f := x.sources[s]; f != nil {
		x.refreshed |= 1 << s
		prev := x.errs[s]
		x.errs[s] = f()
		// Report a source's failure once, not at every fetch.
		if err := x.errs[s]; err != nil && (prev == nil || prev.Error() != err.Error()) {
			x.log.Printf("%v", err)
		}
	}
}

// Refresh reads each source the requested metrics need, once.
func (x *Linux) Refresh(ctx context.Context, pmids []pcp.PMID) error {
	var need uint64
	x.refreshes++
	x.noteNetNeeds(pmids)
	x.disks.needWWID = false
	for _, id := range pmids {
		if id.Cluster() == wwidCluster || (id.Cluster() == 0 && id.Item() == scsiIDItem) {
			x.disks.needWWID = true
		}
	}
	var parts uint8
	for _, id := range pmids {
		if b := x.byPMID.get(id); b != nil {
			need |= 1 << b.src
			parts |= b.needs
			if b.indom >= 0 {
				// The sources listing the metric's domain are read
				// once, as an instance request would have.
				need |= x.indomSrcs[b.indom] &^ x.refreshed &^ rootOnly
			}
		}
	}
	x.disks.needScheduler = parts&needScheduler != 0
	x.disks.needZramStats = parts&needZramStats != 0
	if need&(1<<srcNetAddr) != 0 {
		need |= 1 << srcNetDev // addresses are looked up by interface
	}
	if need&(1<<srcPartitions) != 0 {
		need |= 1 << srcDiskstats // sizes are looked up by device
	}
	if need&(1<<srcNUMA) != 0 {
		need |= 1 << srcMeminfo // for the huge page size
	}
	if need&(1<<srcSlabinfo|1<<srcTTY) != 0 && !x.privileged() {
		need &^= 1<<srcSlabinfo | 1<<srcTTY
		x.denied = true
	} else {
		x.denied = false
	}
	for s := source(0); s < numSources; s++ {
		if need&(1<<s) != 0 {
			x.refreshSource(s)
		}
	}
	return nil
}

// Fetch reads one value from what Refresh parsed. A source that could not
// be read leaves its metrics without values.
func (x *Linux) Fetch(_ context.Context, m *pmda.Metric, inst int32) (pcp.Atom, error) {
	b := x.byPMID.get(m.Desc.PMID)
	if b == nil {
		return pcp.Atom{}, pcp.ErrPMID
	}
	if x.errs[b.src] != nil || (x.denied && (b.src == srcSlabinfo || b.src == srcTTY)) {
		return pcp.Atom{}, pmda.ErrNoValue
	}
	return b.get(inst)
}

// Instances lists an instance domain as the last refresh of its source
// found it.
func (x *Linux) Instances(_ context.Context, _ pmda.Client, indom pcp.InDom) ([]pmda.Instance, error) {
	s := indom.Serial()
	if s >= numInDoms || !x.declared[s] {
		return nil, pcp.ErrInDom
	}
	x.firstUse(int(s))
	return x.indoms[s].list(), nil
}

// rootOnly are the sources whose instances appear only with a fetch
// that may see them, as with PCP's agent.
const rootOnly uint64 = 1<<srcSlabinfo | 1<<srcTTY

// firstUse reads the sources instance domain serial needs that no
// request has read yet, with every optional part of their refresh.
func (x *Linux) firstUse(serial int) {
	miss := x.indomSrcs[serial] &^ x.refreshed &^ rootOnly
	if miss == 0 {
		return
	}
	x.disks.needWWID, x.disks.needScheduler, x.disks.needZramStats = true, true, true
	for s := source(0); s < numSources; s++ {
		if miss&(1<<s) != 0 {
			x.refreshSource(s)
		}
	}
}

// readProc and readSys read a file under /proc or /sys into the shared
// buffer.
func (x *Linux) readProc(rel string) ([]byte, error) { return x.fb.readJoin(x.proc, rel) }
func (x *Linux) readSys(rel string) ([]byte, error)  { return x.fb.readJoin(x.sys, rel) }

// Atom helpers.
// Integers fill every integer field, so a getter serves whichever width
// PCP's descriptor gives the metric.
func u64(v uint64) pcp.Atom {
	return pcp.Atom{L: int32(v), UL: uint32(v), LL: int64(v), ULL: v}
}
func u32(v uint64) pcp.Atom  { return u64(v) }
func i64(v int64) pcp.Atom   { return u64(uint64(v)) }
func i32(v int64) pcp.Atom   { return u64(uint64(v)) }
func f32(v float64) pcp.Atom { return pcp.Atom{F: float32(v), D: v} }
func f64(v float64) pcp.Atom { return pcp.Atom{F: float32(v), D: v} }
func str(s string) pcp.Atom  { return pcp.Atom{CP: s} }

// noInst is the error for an instance the data does not have.
var noInst error = pcp.ErrInst

// pcpAtom shortens the getters' signatures.
type pcpAtom = pcp.Atom

// errAppVersion marks a metric this kernel cannot supply.
var errAppVersion error = pcp.ErrAppVersion

// userHZ is the tick rate of /proc/stat's times: the AT_CLKTCK entry of
// this process's auxiliary vector, else Linux's constant 100.
func (x *Linux) userHZ() uint64 {
	b, err := os.ReadFile("/proc/self/auxv")
	if err != nil {
		return 100
	}
	for len(b) >= 16 {
		key := nativeU64(b[:8])
		val := nativeU64(b[8:16])
		if key == 17 && val > 0 { // AT_CLKTCK
			return val
		}
		if key == 0 {
			break
		}
		b = b[16:]
	}
	return 100
}
