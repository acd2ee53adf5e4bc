package proc

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"sync"

	"github.com/gopcp/gopcp/agents/internal/pcpdesc"
	"github.com/gopcp/gopcp/agents/proc/acct"
	"github.com/gopcp/gopcp/agents/proc/cgroup"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmda"
)

// Domain is the agent's domain number, PROC in PCP's domain list.
const Domain = 3

// Name is the agent's name, as its daemon is called.
const Name = "pmdaproc"

// Instance domain serials of PCP's pmdaproc (its indom.h).
const (
	procInDom    = 9
	hotprocInDom = 39
)

// Options configures the agent. cmd/pmdaproc and agents/all fill them
// from PCP's options and variables (PROC_STATSPATH, PROC_HERTZ,
// PROC_PAGESIZE, PROC_THREADS, PROC_ACCESS).
type Options struct {
	// StatsPath is a prefix of every path read (/proc becomes
	// StatsPath/proc), as PCP's PROC_STATSPATH; empty reads the host's.
	StatsPath string
	// Hertz is the kernel's clock ticks per second (0: 100, what
	// Linux gives user space); PageSize the page size (0: the host's).
	Hertz, PageSize uint64
	// Threads lists threads besides processes (-L, PROC_THREADS).
	Threads bool
	// AllAccess serves every value to every client (-A, PROC_ACCESS).
	AllAccess bool
	// Cgroups restricts the processes to a cgroup (-r); kept and served
	// as proc.control.perclient.cgroups.
	Cgroups string
	// HotprocConfig is the file of hotproc's predicate, read at start
	// and on a store to hotproc.control.reload_config; empty means none
	// (PCP's agent reads $PCP_PMDAS_DIR/proc/hotproc.conf, which
	// OptionsFromEnv names). Without one hotproc starts with no
	// predicate and an empty list, as PCP's does without the file.
	HotprocConfig string
	// AcctSystemFile is the system's process accounting file (pcp.conf's
	// PCP_PACCT_SYSTEM_PATH) and AcctPrivateFile the one the agent has
	// the kernel write when acct.control.enable_acct is set
	// ($PCP_VAR_DIR/pmcd/pacct); empty for none.
	AcctSystemFile, AcctPrivateFile string
	// RootSocket is pmdaroot's socket ($PCP_VAR_DIR/pmcd/root.socket),
	// asked for the cgroup of a container a client names; empty for
	// none, when such clients get -ENOTCONN as from PCP's agent without
	// pmdaroot.
	RootSocket string
	// Log receives the agent's reports; nil discards them.
	Log *log.Logger
}

// pcpDesc is one row of pcpDescs.
type pcpDesc pcpdesc.Row

// Proc is the agent's Fetcher.
type Proc struct {
	domain    uint32
	hz        uint64
	pageSize  uint64
	allAccess bool
	log       *log.Logger

	mu      sync.Mutex // the clients' states
	clients map[pmda.Client]*clientState

	// state guards what follows: fetches (which pmda.Agent runs one at
	// a time), instance requests and stores may come concurrently from
	// pmcd for different clients when the agent runs in-process.
	state   sync.Mutex
	r       reader
	all     *table
	hot     *table
	pids    []int32
	threads bool   // proc.control.all.threads
	cgroups string // the -r cgroup

	need     [maxClusters]bool
	files    [2]uint32 // files the fetch needs: all, hot
	access   bool      // the fetch's client may see per-process values
	creds    credSwitch
	gathered bool
	runq     [8]int32
	atom     pcp.Atom // the value FetchSet hands to pmda's add
	// acctInsts lists acct's processes for a fetch, kept between fetches.
	acctInsts []pmda.Instance
	gather    gatherArgs
	gatherFn  func(ok bool) // p.gatherStep

	names     nameCache
	ttys      ttyTable
	autogroup int // -1 unknown this fetch, 0 off, 1 on

	hotproc hotproc

	root      rootClient
	container containerState // the request's client's container
	fetchErr  error          // the fetch's answer to every metric: its client's container's error

	cg          *cgroup.Source
	cgNeed      []pcp.PMID // the fetch's cgroup metrics, in the cgroup package's domain
	ac          *acct.Source
	acctMetrics map[uint32]*pmda.Metric // by item
	ns          namespace

	// listed, when set (by tests), runs after each listing of the
	// processes, before any of their files is read.
	listed func()
}

// New returns the proc agent for domain (normally Domain). Closing the
// agent (pmda.Agent.Close: pmcd dropping an in-process agent, a daemon's
// Main at exit) turns off the private process accounting it may have
// turned on (acct.control.enable_acct), so the kernel stops writing a
// file nobody reads.
func New(domain uint32, opts Options) (*pmda.Agent, error) {
	a, _, err := newAgent(domain, opts)
	return a, err
}

// newAgent is New, also returning the agent's Fetcher.
func newAgent(domain uint32, opts Options) (*pmda.Agent, *Proc, error) {
	p := &Proc{
		domain:    domain,
		hz:        opts.Hertz,
		pageSize:  opts.PageSize,
		allAccess: opts.AllAccess,
		log:       opts.Log,
		clients:   make(map[pmda.Client]*clientState),
		all:       newTable(),
		hot:       newTable(),
		threads:   opts.Threads,
		cgroups:   opts.Cgroups,
		autogroup: -1,
	}
	p.gatherFn = p.gatherStep
	p.r.root = opts.StatsPath
	if p.hz == 0 {
		p.hz = 100
	}
	if p.pageSize == 0 {
		p.pageSize = uint64(os.Getpagesize())
	}
	if p.log == nil {
		p.log = log.New(io.Discard, "", 0)
	}
	p.creds = newCredSwitch()
	p.cg = cgroup.New(cgroup.Options{Root: opts.StatsPath, Hertz: p.hz})
	p.root.path = opts.RootSocket
	p.ac = acct.New(acct.Options{SystemFile: opts.AcctSystemFile, PrivateFile: opts.AcctPrivateFile,
		Hertz: uint32(p.hz), TTYName: p.ttyName, UserName: p.userName, GroupName: p.groupName})
	p.ttys.load(opts.StatsPath)
	p.hotproc.init(p, opts.HotprocConfig)
	h, err := help()
	if err != nil {
		return nil, nil, err
	}
	metrics := make([]pmda.Metric, 0, len(pcpDescs))
	for i := range pcpDescs {
		d := &pcpDescs[i]
		m := pmda.Metric{Name: d.Name, Desc: (*pcpdesc.Row)(d).Desc(domain)}
		m.OneLine, m.Help = h.text(d.Name)
		metrics = append(metrics, m)
	}
	cgMetrics, acMetrics := p.cg.Metrics(), p.ac.Metrics()
	p.acctMetrics = make(map[uint32]*pmda.Metric, len(acMetrics))
	for i := range acMetrics {
		p.acctMetrics[acMetrics[i].Desc.PMID.Item()] = &acMetrics[i]
	}
	p.ns.build(domain, cgMetrics, acMetrics)
	metrics = append(append(metrics, cgMetrics...), acMetrics...)
	indoms := []pmda.InDom{
		{InDom: pcp.NewInDom(domain, procInDom), OneLine: h.indomOne[procInDom], Help: h.indomHelp[procInDom]},
		{InDom: pcp.NewInDom(domain, hotprocInDom), OneLine: h.indomOne[hotprocInDom], Help: h.indomHelp[hotprocInDom]},
	}
	indoms = append(append(indoms, p.cg.InDoms()...), p.ac.InDoms()...)
	a, err := pmda.New(pmda.Config{
		Name:    Name,
		Domain:  domain,
		Metrics: metrics,
		InDoms:  indoms,
		Fetcher: p,
		Flags:   pdu.FlagAuth | pdu.FlagContainer,
		Log:     opts.Log,
	})
	if err != nil {
		return nil, nil, err
	}
	a.OnClose(func() error {
		p.ac.Close()
		p.root.close()
		return nil
	})
	return a, p, nil
}

// twin is the proc.* cluster of cluster and whether it is hotproc's.
func twin(cluster uint32) (uint32, bool) {
	if c, ok := hotTwin(cluster); ok {
		return c, true
	}
	return cluster, false
}

// Refresh notes what the fetch needs. The processes are listed by the
// fetch's first FetchSet, which knows the client (pmcd may ask for
// instances for another client in between, so nothing here may depend
// on which client asked last).
//
// Refresh takes p.state and FetchEnd lets it go, so that the fetch's
// FetchSet calls run under it without taking it once a metric.
func (p *Proc) Refresh(ctx context.Context, pmids []pcp.PMID) error {
	p.state.Lock()
	held := false
	defer func() {
		if !held { // a panic: pmda calls FetchEnd only after a nil
			p.state.Unlock()
		}
	}()
	p.need = [maxClusters]bool{}
	p.files = [2]uint32{}
	for _, id := range pmids {
		if id.Domain() != p.domain {
			continue
		}
		c := id.Cluster()
		if c < maxClusters {
			p.need[c] = true
		}
		base, hot := twin(c)
		if f, ok := fileOf(base, id.Item()); ok {
			p.files[b2i(hot)] |= 1 << f
		}
	}
	p.gathered = false
	p.sourceRefresh(pmids)
	held = true
	return nil
}

// FetchEnd lets go of p.state, which Refresh took, as pmda.FetchEnder.
func (p *Proc) FetchEnd() { p.state.Unlock() }

// begin lists the processes for the fetch of client c, once, as its
// credentials allow, and reads the files its metrics need. The caller
// holds p.state.
func (p *Proc) begin(ctx context.Context, c pmda.Client, pv pmda.ProfileView) {
	if p.gathered {
		return
	}
	p.gathered = true
	p.autogroup = -1
	cs := p.client(c)
	if p.fetchErr = p.enterContainer(ctx, cs); p.fetchErr != nil {
		return
	}
	if len(p.cgNeed) > 0 {
		p.cg.RefreshContainer(p.cgNeed, p.container.cgroup)
	}
	p.access = p.allAccess
	if p.need[acct.Cluster] && p.acctAllowed(cs) {
		p.ac.Refresh()
	}
	wantAll, wantHot := p.needAll(), p.needHot()
	if !wantAll && !wantHot {
		return
	}
	if wantHot {
		p.hotproc.maybeEval()
	}
	p.gather = gatherArgs{cs: cs, pv: pv, all: wantAll, hot: wantHot}
	p.access = p.creds.run(cs, p.allAccess, p.gatherFn)
	p.gather = gatherArgs{}
}

// gatherArgs are what gatherStep needs of begin: a closure over them would
// escape (run may call it on a goroutine of its own), an allocation every
// fetch.
type gatherArgs struct {
	cs       *clientState
	pv       pmda.ProfileView
	all, hot bool
}

// gatherStep is what begin has run with the client's credentials (as
// p.gatherFn, made once): the listings and the files of the processes
// the profile selects.
func (p *Proc) gatherStep(ok bool) {
	g := &p.gather
	if g.all {
		p.refreshAll(g.cs, p.need[cRunq])
	}
	if g.hot {
		p.hotproc.refresh(g.cs)
	}
	if ok {
		p.gatherAs(g.cs, g.pv)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// needAll reports whether the fetch needs the process listing.
func (p *Proc) needAll() bool {
	for _, c := range [...]int{cStat, cStatm, cStatus, cIO, cLabel, cCgroup, cSchedstat, cOOM, cAutogroup,
		cCwd, cExe, cFD, cRunq, cSmaps} {
		if p.need[c] {
			return true
		}
	}
	return false
}

// needHot reports whether the fetch needs hotproc's processes.
func (p *Proc) needHot() bool {
	for _, c := range hotClusters {
		if p.need[c] {
			return true
		}
	}
	return p.need[cHotGlobal] || p.need[cHotPred]
}

// threadsFor is whether client cs lists threads.
func (p *Proc) threadsFor(cs *clientState) bool {
	if cs != nil && cs.threadsSet {
		return cs.threads
	}
	return p.threads
}

// refreshAll lists every process and, with runq, reads every stat for
// proc.runq.
func (p *Proc) refreshAll(cs *clientState, runq bool) {
	threads := p.threadsFor(cs)
	if p.container.named {
		p.pids = p.r.listCgroup(p.pids, p.container.path, threads)
	} else if cg := p.cgroupsFor(cs); cg != "" {
		p.pids = p.r.listCgroup(p.pids, cg, threads)
	} else {
		var err error
		if p.pids, err = p.r.list(p.pids, threads); err != nil {
			p.log.Printf("proc: cannot list %s/proc: %v", p.r.root, err)
		}
	}
	p.all.refresh(&p.r, p.pids, threads)
	if p.listed != nil {
		p.listed()
	}
	if runq {
		p.runq = [8]int32{}
		for _, pid := range p.all.pids {
			e := p.all.byPID[pid]
			p.r.load(e, fStat, threads)
			p.runq[runqState(e)]++
		}
	}
}

// runqState is the proc.runq item a process counts in: 0 runnable,
// 1 blocked, 2 sleeping, 3 stopped, 4 swapped (kernel threads: no
// virtual size), 5 defunct, 6 unknown; PCP's agent never counts 7
// (kernel).
func runqState(e *entry) int {
	if e.ok&(1<<fStat) == 0 {
		return 6
	}
	if e.stat.state == 'Z' {
		return 5
	}
	if e.stat.v[sVsize] == 0 {
		return 4
	}
	switch e.stat.state {
	case 'R':
		return 0
	case 'S':
		return 2
	case 't', 'T':
		return 3
	case 'P', 'D':
		return 1
	}
	return 6
}

// gatherAs reads, for every instance the profile selects, the files the
// fetch's metrics need; it runs with the client's credentials.
func (p *Proc) gatherAs(cs *clientState, pv pmda.ProfileView) {
	if p.files[0] == 0 && p.files[1] == 0 {
		return
	}
	threads := p.threadsFor(cs)
	key := uint64(1) << 63
	if !p.allAccess && cs != nil {
		key = uint64(uint32(cs.uid))<<32 | uint64(uint32(cs.gid))
	}
	if threads {
		key |= 1 << 62
	}
	live := p.r.root == ""
	for k, t := range [2]*table{p.all, p.hot} {
		files := p.files[k]
		if files == 0 {
			continue
		}
		indom := pcp.NewInDom(p.domain, [2]uint32{procInDom, hotprocInDom}[k])
		for _, pid := range t.pids {
			if pv.Selects(indom, pid) {
				p.r.loadFiles(t.byPID[pid], files, threads, key, live)
			}
		}
	}
}

// FetchSet answers one metric: the per-process ones from the gathered
// files, instance by instance, as pmdaFetch answers (the set's count
// is the last instance's answer when none has a value).
//
// It runs under the p.state Refresh took.
func (p *Proc) FetchSet(ctx context.Context, c pmda.Client, pmid pcp.PMID, pv pmda.ProfileView, add func(inst int32, t pcp.Type, a *pcp.Atom) error) error {
	p.begin(ctx, c, pv)
	if p.fetchErr != nil {
		return p.fetchErr
	}
	if handled, err := p.sourceFetchSet(c, pmid, pv, add); handled {
		return err
	}
	cluster, item := pmid.Cluster(), pmid.Item()
	base, hot := twin(cluster)
	d := findDesc(cluster, item)
	if d == nil {
		return pcp.ErrPMID
	}
	// The agent's own atom: a local would escape through add, an
	// allocation per metric.
	a := &p.atom
	if d.InDom < 0 {
		*a = pcp.Atom{}
		sts := p.single(c, base, hot, cluster, item, a)
		if sts == haveValue {
			return add(pcp.InstNull, d.Type, a)
		}
		if sts == noValue {
			return pmda.ErrNoValue
		}
		return pcp.Error(sts)
	}
	if cluster == cHotPred {
		return p.hotproc.fetchPred(item, pv, pcp.NewInDom(p.domain, hotprocInDom), d.Type, add)
	}
	t := p.all
	indom := pcp.NewInDom(p.domain, procInDom)
	if hot {
		t = p.hot
		indom = pcp.NewInDom(p.domain, hotprocInDom)
	}
	var last int32
	n := 0
	for _, pid := range t.pids {
		if !pv.Selects(indom, pid) {
			continue
		}
		if !p.access {
			last = int32(pcp.ErrPermission)
			continue
		}
		*a = pcp.Atom{}
		last = p.value(t.byPID[pid], base, item, a)
		if last == haveValue {
			if err := add(pid, d.Type, a); err != nil {
				return err
			}
			n++
		}
	}
	if n > 0 || last == noValue || last == haveValue {
		return nil
	}
	return pcp.Error(last)
}

// single answers a metric without an instance domain.
func (p *Proc) single(c pmda.Client, base uint32, hot bool, cluster, item uint32, a *pcp.Atom) int32 {
	switch {
	case base == cStat && item == nprocsItem:
		if hot {
			a.UL = uint32(len(p.hot.pids))
		} else {
			a.UL = uint32(len(p.all.pids))
		}
	case base == cAutogroup && item == 0:
		if !p.access {
			return int32(pcp.ErrPermission)
		}
		a.UL = 0
		if p.autogroupOn() {
			a.UL = 1
		}
	case cluster == cRunq:
		if item >= 8 {
			return int32(pcp.ErrPMID)
		}
		a.L = p.runq[item]
	case cluster == cControl:
		return p.control(c, item, a)
	case cluster == cHotGlobal:
		return p.hotproc.global(item, a)
	default:
		return int32(pcp.ErrPMID)
	}
	return haveValue
}

// autogroupOn reads whether the kernel's autogroup scheduling is on,
// once per fetch.
func (p *Proc) autogroupOn() bool {
	if p.autogroup < 0 {
		p.autogroup = 0
		b, err := os.ReadFile(p.r.root + "/proc/sys/kernel/sched_autogroup_enabled")
		if err == nil {
			if v, _ := num(b, 0); v == 1 {
				p.autogroup = 1
			}
		}
	}
	return p.autogroup == 1
}

// descIndex finds a row of pcpDescs by cluster and item.
func descIndex() map[uint32]*pcpDesc {
	descIndexOnce.Do(func() {
		m := make(map[uint32]*pcpDesc, len(pcpDescs))
		for i := range pcpDescs {
			d := &pcpDescs[i]
			m[d.Cluster<<10|d.Item] = d
		}
		descIndexOnce.m = m
	})
	return descIndexOnce.m
}

var descIndexOnce struct {
	sync.Once
	m map[uint32]*pcpDesc
}

func findDesc(cluster, item uint32) *pcpDesc { return descIndex()[cluster<<10|item] }

// Instances lists the processes (all, or the hot ones), refreshing the
// listing as PCP's agent does for an instance request.
func (p *Proc) Instances(ctx context.Context, c pmda.Client, indom pcp.InDom) ([]pmda.Instance, error) {
	p.state.Lock()
	defer p.state.Unlock()
	if err := p.enterContainer(ctx, p.client(c)); err != nil {
		return nil, err
	}
	if insts, handled, err := p.sourceInstances(c, indom); handled {
		return insts, err
	}
	switch indom.Serial() {
	case procInDom:
		cs := p.client(c)
		p.creds.run(cs, p.allAccess, func(bool) { p.refreshAll(cs, false) })
		return p.all.instances(), nil
	case hotprocInDom:
		cs := p.client(c)
		p.hotproc.maybeEval()
		p.creds.run(cs, p.allAccess, func(bool) { p.hotproc.refresh(cs) })
		return p.hot.instances(), nil
	}
	return nil, pcp.ErrInDom
}

// FindInstance looks one process up: by number, or by name, where a name
// of digits only is the pid written in six digits, as PCP's agent takes
// it.
func (p *Proc) FindInstance(ctx context.Context, c pmda.Client, indom pcp.InDom, inst int32, name string) (pmda.Instance, error) {
	insts, err := p.Instances(ctx, c, indom)
	if err != nil {
		return pmda.Instance{}, err
	}
	t := p.all
	if indom.Serial() == hotprocInDom {
		t = p.hot
	}
	p.state.Lock()
	defer p.state.Unlock()
	if name == "" {
		if e := t.byPID[inst]; e != nil && e.seen == t.gen {
			return pmda.Instance{ID: e.pid, Name: e.inst}, nil
		}
		return pmda.Instance{}, pcp.ErrInst
	}
	digits := len(name) > 0
	for i := 0; i < len(name); i++ {
		if name[i] < '0' || name[i] > '9' {
			digits = false
			break
		}
	}
	if digits {
		name = fmt.Sprintf("%06d", atoi(name))
	}
	for _, in := range insts {
		if in.Name == name {
			return in, nil
		}
	}
	for _, in := range insts {
		if w, _, ok := cut(in.Name); ok && w == name {
			return in, nil
		}
	}
	return pmda.Instance{}, pcp.ErrInst
}

func cut(s string) (string, string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// atoi is C's atoi on digits: it wraps as a 32-bit int.
func atoi(s string) int32 {
	var v int32
	for i := 0; i < len(s); i++ {
		v = v*10 + int32(s[i]-'0')
	}
	return v
}

// BeginRequest notes the request's client and refuses the process
// instance domains to clients without access, as PCP's agent does.
func (p *Proc) BeginRequest(_ context.Context, c pmda.Client, t pdu.Type, ident uint32) error {
	if t == pdu.TypeInstanceReq {
		s := pcp.InDom(ident).Serial()
		if (s == procInDom || s == hotprocInDom) && !p.allAccess && !p.client(c).credentialed() {
			return pcp.ErrPermission
		}
	}
	return nil
}

// LabelSets gives each process its {"pid":N} label.
func (p *Proc) LabelSets(ctx context.Context, c pmda.Client, ident uint32, level uint8) ([]pcp.LabelSet, bool, error) {
	if level&^(pcp.LabelCompound|pcp.LabelOptional) != pcp.LabelInstances {
		return nil, false, nil
	}
	s := pcp.InDom(ident).Serial()
	if s != procInDom && s != hotprocInDom {
		return nil, false, nil
	}
	insts, err := p.Instances(ctx, c, pcp.InDom(ident))
	if err != nil {
		return nil, true, nil
	}
	sets := make([]pcp.LabelSet, 0, len(insts))
	for _, in := range insts {
		ls, err := pmda.NewLabelSet(in.ID, pcp.LabelInstances, []pmda.Label{{Name: "pid", Value: uint32(in.ID)}})
		if err != nil {
			return nil, true, err
		}
		sets = append(sets, ls)
	}
	return sets, true, nil
}

// Fetch is never called: FetchSet answers every metric (pmda.Agent
// prefers a SetFetcher); it is here because a pmda.Config needs a
// Fetcher.
func (p *Proc) Fetch(context.Context, *pmda.Metric, int32) (pcp.Atom, error) {
	return pcp.Atom{}, pcp.ErrPMID
}
