package mmv

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"runtime/debug"
	"sync"
	"syscall"
	"time"

	"github.com/gopcp/gopcp/internal/ownfile"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmda"
	"github.com/gopcp/gopcp/pmns"
)

// The domains and prefixes of PCP's two MMV agents.
const (
	Domain        = 70
	Prefix        = "mmv"
	PMProxyDomain = 4
	PMProxyPrefix = "pmproxy"
)

// Options configure New.
type Options struct {
	// Dir is the directory of MMV files, normally $PCP_TMP_DIR/<Prefix>.
	Dir string
	// Prefix is the first part of every name: "mmv" or "pmproxy".
	Prefix string
	// Log receives one line per skipped file; nil discards.
	Log *log.Logger
	// Now is the clock for Elapsed values in a timed section; nil is
	// time.Now.
	Now func() time.Time
	// Alive reports whether a process exists; nil asks the kernel.
	Alive func(pid int32) bool
}

// agent is the Fetcher with every hook of a dynamic agent.
type agent struct {
	dir, prefix string
	domain      uint32
	log         *log.Logger
	now         func() time.Time
	alive       func(pid int32) bool

	mu      sync.Mutex
	reload  int32 // mmv.control.reload: non-zero asks for a rescan
	debug   int32 // mmv.control.debug
	loaded  bool
	dirTime int64  // the directory's mtime (ns) at the last check
	dirErr  error  // the error stat gave at the last check
	dirz    []byte // dir NUL-terminated, as statPath takes it
	state   *state
	skipped map[string]string // the last problem logged for each file
	// notify is set by every rescan after the first, and told to pmcd
	// (pmda's NoteChange) with the next fetch, as pmdammv does.
	notify bool
	pmda   *pmda.Agent
	// oldFault is the fault setting enter or Refresh replaced, put back
	// by leave; atom is the value being handed to pmda's add (a local
	// would escape through add, an allocation per value). Both under mu.
	oldFault bool
	atom     pcp.Atom
}

// New returns the MMV agent for domain with o's directory and prefix.
func New(domain uint32, o Options) (*pmda.Agent, error) {
	_, p, err := newAgent(domain, o)
	return p, err
}

// newAgent is New that also returns the agent, for tests to release its
// mappings (an in-process agent lives as long as its pmcd).
func newAgent(domain uint32, o Options) (*agent, *pmda.Agent, error) {
	if o.Prefix == "" {
		return nil, nil, fmt.Errorf("mmv agent: no prefix")
	}
	a := &agent{dir: o.Dir, prefix: o.Prefix, domain: domain, log: o.Log, now: o.Now, alive: o.Alive,
		dirz: append([]byte(o.Dir), 0)}
	if a.log == nil {
		a.log = log.New(io.Discard, "", 0)
	}
	if a.now == nil {
		a.now = time.Now
	}
	if a.alive == nil {
		a.alive = func(pid int32) bool { return ownfile.Alive(int(pid)) }
	}
	a.state = a.emptyState()
	p, err := pmda.New(pmda.Config{
		Name:    "pmda" + o.Prefix,
		Domain:  domain,
		Metrics: a.controlMetrics(),
		Fetcher: a,
		Log:     o.Log,
	})
	a.pmda = p
	if p != nil {
		// An in-process agent's owner ends it (pmcd dropping it, a
		// local context closed): its files are unmapped then.
		p.OnClose(func() error { a.release(); return nil })
	}
	return a, p, err
}

// release unmaps every file.
func (a *agent) release() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.state.close()
	a.state = a.emptyState()
}

// controlMetrics are the three metrics of cluster 0.
func (a *agent) controlMetrics() []pmda.Metric {
	var ms []pmda.Metric
	for i, n := range []string{"reload", "debug", "files"} {
		ms = append(ms, pmda.Metric{
			Name:    a.prefix + ".control." + n,
			Desc:    pcp.Desc{PMID: pcp.NewPMID(a.domain, 0, uint32(i)), Type: pcp.Type32, InDom: pcp.InDomNull, Sem: pcp.SemInstant},
			OneLine: controlText[i][0],
			Help:    controlText[i][1],
		})
	}
	return ms
}

// controlText is the help of the control metrics, in our own words
// (the comparisons with PCP's pmdammv mask these texts).
var controlText = [3][2]string{
	{"Store a non-zero value to rescan the MMV files", "Storing any value other than 0 makes the agent read the directory of\nMMV files again and map every file afresh, as it does on its own when a\nfile or the directory changes. It reads back as 0 once the rescan is\ndone.\n"},
	{"The agent's debugging flags", "The agent's debugging flags, as pmdbg(1) names them; store a new value\nwith pmstore to change them.\n"},
	{"Number of MMV files served", "How many memory-mapped value files the agent maps and serves now.\n"},
}

// maybeReload is pmdammv's check before a request: it rescans when a
// file's generation changed, a Process file's writer exited, the
// directory's mtime (or the error reaching it) changed, or a reload was
// asked for. It runs under a.mu.
func (a *agent) maybeReload() {
	need := a.reload != 0 || !a.loaded
	for _, s := range a.state.files {
		if g1, g2 := s.f.Generations(); g1 != s.gen || g2 != s.gen {
			need = true
			break
		}
		if s.pid != 0 && !a.alive(s.pid) {
			need = true
			break
		}
	}
	var st syscall.Stat_t
	err := statPath(a.dirz, &st)
	if err == nil {
		if t := st.Mtim.Sec*1e9 + st.Mtim.Nsec; t != a.dirTime || a.dirErr != nil {
			need = true
			a.dirTime, a.dirErr = t, nil
		}
	} else if a.dirErr == nil || a.dirErr.Error() != err.Error() {
		need = true
		a.dirTime, a.dirErr = 0, err
	}
	if need {
		// pmdammv's first scan builds its namespace; each later one
		// replaces it, which it tells pmcd as a change of names
		// whether or not any name changed.
		a.notify = a.notify || a.loaded
		a.loaded = true
		a.state.close()
		a.state = a.emptyState()
		a.scan(a.state)
	}
}

// guard turns a fault reading a mapping (a file truncated under the
// agent) into an error and a rescan at the next request; deferred by
// every method that reads mappings, with faults made panics first.
func (a *agent) guard(err *error) {
	if r := recover(); r != nil {
		a.atom.CP = "" // it may point into the mapping (see FetchSet)
		// Only a memory fault is the file's doing; anything else is a
		// bug here and must not be hidden.
		if _, fault := r.(interface{ Addr() uintptr }); !fault {
			panic(r)
		}
		a.log.Printf("%s: fault reading a mapped file (%v); rescanning", a.prefix, r)
		a.reload = 1
		if err != nil {
			*err = pcp.ErrGeneric
		}
	}
}

// enter takes the lock, makes faults panics and rescans if needed; leave
// undoes it. (Not a returned closure to defer: that was an allocation
// every request.)
func (a *agent) enter() {
	a.mu.Lock()
	a.oldFault = debug.SetPanicOnFault(true)
	done := false
	defer func() {
		if !done { // a panic on its way out: let go of the lock
			a.leave()
		}
	}()
	func() {
		defer a.guard(nil)
		a.maybeReload()
	}()
	done = true
}

// leave undoes enter, or Refresh.
func (a *agent) leave() {
	debug.SetPanicOnFault(a.oldFault)
	a.mu.Unlock()
}

// BeginRequest rescans before fetch, descriptor, instance, text and store
// requests, as pmdammv does (label requests do not rescan there). A fetch
// carries the news of rescans since the last one to pmcd.
func (a *agent) BeginRequest(ctx context.Context, c pmda.Client, t pdu.Type, ident uint32) error {
	if t == pdu.TypeLabelReq {
		return nil
	}
	a.enter()
	defer a.leave()
	if t == pdu.TypeFetch && a.notify {
		a.notify = false
		a.pmda.NoteChange(pmda.NamesChanged)
	}
	return nil
}

// Fetch is not used: FetchSet answers every fetch.
func (a *agent) Fetch(ctx context.Context, m *pmda.Metric, inst int32) (pcp.Atom, error) {
	return pcp.Atom{}, pcp.ErrPMID
}

// Desc answers from the descriptors of the last scan.
func (a *agent) Desc(ctx context.Context, c pmda.Client, pmid pcp.PMID) (pcp.Desc, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if m := a.state.metric(pmid); m != nil {
		return m.desc, nil
	}
	return pcp.Desc{}, pcp.ErrPMID
}

// Instances answers from the instance domains of the last scan.
func (a *agent) Instances(ctx context.Context, c pmda.Client, indom pcp.InDom) ([]pmda.Instance, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	d, ok := a.state.indoms[indom]
	if !ok {
		return nil, pcp.ErrInDom
	}
	return d.insts, nil
}

// The namespace methods answer from the tree of the last scan, rescanning
// first as pmdammv does.

func (a *agent) LookupName(ctx context.Context, c pmda.Client, name string) (pcp.PMID, error) {
	a.enter()
	defer a.leave()
	id, err := a.state.names.Lookup(name)
	if err != nil {
		return pcp.PMIDNull, pcpErr(err, pcp.ErrName)
	}
	return id, nil
}

func (a *agent) Names(ctx context.Context, c pmda.Client, pmid pcp.PMID) ([]string, error) {
	a.enter()
	defer a.leave()
	names, err := a.state.names.NameAll(pmid)
	if err != nil {
		return nil, pcpErr(err, pcp.ErrPMID)
	}
	return names, nil
}

func (a *agent) Children(ctx context.Context, c pmda.Client, name string) ([]string, []int32, error) {
	a.enter()
	defer a.leave()
	kids, err := a.state.names.Children(name)
	if err != nil {
		return nil, nil, pcpErr(err, pcp.ErrName)
	}
	var names []string
	var status []int32
	for _, k := range kids {
		names = append(names, k.Name)
		st := int32(pdu.PMNSNonLeafStatus)
		if k.Leaf {
			st = pdu.PMNSLeafStatus
		}
		status = append(status, st)
	}
	return names, status, nil
}

func (a *agent) Traverse(ctx context.Context, c pmda.Client, name string) ([]string, error) {
	a.enter()
	defer a.leave()
	names, err := a.state.names.Traverse(name)
	if err != nil {
		return nil, pcpErr(err, pcp.ErrName)
	}
	return names, nil
}

// pcpErr is err's own PCP code if it carries one, else fallback.
func pcpErr(err error, fallback pcp.Error) error {
	if e, ok := errors.AsType[pcp.Error](err); ok {
		return e
	}
	return fallback
}

// Store sets mmv.control.reload or debug, as pmdammv does: one 32-bit
// value each; files and every other metric refuse (ErrPermission).
func (a *agent) Store(ctx context.Context, c pmda.Client, set *pcp.ValueSet) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if set.PMID.Cluster() != 0 {
		return pcp.ErrPermission
	}
	item := set.PMID.Item()
	if item > 2 {
		return nil // pmdammv finds no such control metric and stores nothing
	}
	if len(set.Values) != 1 {
		return pcp.ErrBadStore
	}
	atom, err := pcp.ExtractValue(set.ValFmt, &set.Values[0], pcp.Type32, pcp.Type32)
	if err != nil {
		return err
	}
	switch item {
	case 0:
		a.reload = atom.L
	case 1:
		a.debug = atom.L
	default:
		return pcp.ErrPermission
	}
	return nil
}

var _ interface {
	pmda.Fetcher
	pmda.RequestHook
	pmda.Describer
	pmda.InstanceLister
	pmda.Namer
	pmda.SetFetcher
	pmda.Refresher
	pmda.FetchEnder
	pmda.Storer
	pmda.Texter
	pmda.Labeler
} = (*agent)(nil)

// Namespace is the agent's part of a namespace built without PCP's files:
// the prefix as a dynamic subtree of domain, whose names the agent serves.
func Namespace(prefix string) func(domain uint32) (*pmns.Tree, error) {
	return func(domain uint32) (*pmns.Tree, error) {
		t := pmns.New()
		return t, t.Add(prefix, pmns.DynamicRoot(domain))
	}
}
