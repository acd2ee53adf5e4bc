package trace

import (
	"context"
	"io"
	"log"
	"sync"
	"time"

	"github.com/gopcp/gopcp/access"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
	"github.com/gopcp/gopcp/trace"
)

// Name is the agent's name, as its daemon is called.
const Name = "pmdatrace"

// Agent is the trace agent: the data programs send and the pmda.Agent
// that serves it. Safe for concurrent use.
type Agent struct {
	pm   *pmda.Agent
	opts Options
	log  *logLimiter
	acl  *access.Control

	mu    sync.Mutex
	st    *stats
	debug int32         // trace.control.debug, as stored
	rearm chan struct{} // a reset restarts the interval timer
	atom  pcp.Atom      // the value FetchSet hands to add (a local escapes through it)

	clients clientSet
}

// New builds the agent for domain with o's settings.
func New(domain uint32, o Options) (*Agent, error) {
	if err := o.defaults(); err != nil {
		return nil, err
	}
	lg := o.Log
	if lg == nil {
		lg = log.New(io.Discard, "", 0)
	}
	acl, err := newAccess(o.Access, lg)
	if err != nil {
		return nil, err
	}
	a := &Agent{
		opts:  o,
		log:   newLogLimiter(lg, 20, time.Minute),
		acl:   acl,
		st:    newStats(o.Buckets, o.MaxTags, o.MaxBucketEntries),
		rearm: make(chan struct{}, 1),
	}
	a.clients.max = o.MaxClients
	ms, ds := table(o.ObserveUnits, o.CounterUnits)
	pm, err := pmda.New(pmda.Config{Name: Name, Domain: domain, Metrics: ms, InDoms: ds, Fetcher: fetcher{a}, Log: o.Log,
		// as PCP's trace agent, which has no label callback
		Interface: 2})
	if err != nil {
		return nil, err
	}
	a.pm = pm
	return a, nil
}

// PMDA is the agent pmcd talks to.
func (a *Agent) PMDA() *pmda.Agent { return a.pm }

// Tick closes the working interval now, as the agent's timer does every
// Options.Period/Options.Buckets; with Options.ManualTicks only Tick does.
func (a *Agent) Tick() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.st.tick()
}

// Reset forgets every tag, as a store into trace.control.reset does.
func (a *Agent) Reset() {
	a.mu.Lock()
	a.st.reset()
	a.mu.Unlock()
	select {
	case a.rearm <- struct{}{}:
	default:
	}
	a.log.Printf("reset: every tag forgotten")
}

// Record adds one datum as if a program had sent it.
func (a *Agent) Record(d trace.Data) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.st.record(d)
}

// runTimer closes an interval every Options.interval until ctx ends,
// starting again from a reset.
func (a *Agent) runTimer(ctx context.Context) {
	iv := a.opts.interval()
	t := time.NewTicker(iv)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			a.Tick()
		case <-a.rearm:
			t.Reset(iv)
		}
	}
}

// fetcher answers pmcd for the agent.
type fetcher struct{ a *Agent }

func (f fetcher) Fetch(ctx context.Context, m *pmda.Metric, inst int32) (pcp.Atom, error) {
	return pcp.Atom{}, pcp.ErrPMID // FetchSet answers every fetch
}

// Instances serves the instance domains from the arrival-ordered lists.
func (f fetcher) Instances(ctx context.Context, c pmda.Client, indom pcp.InDom) ([]pmda.Instance, error) {
	s := indom.Serial()
	if indom.Domain() != f.a.pm.Domain() || s > 3 {
		return nil, pcp.ErrInDom
	}
	a := f.a
	a.mu.Lock()
	defer a.mu.Unlock()
	es := a.st.instances(trace.Type(s + 1))
	out := make([]pmda.Instance, len(es))
	for i, e := range es {
		out[i] = pmda.Instance{ID: e.id, Name: e.tag}
	}
	return out, nil
}

// Refresh takes a.mu for the whole fetch, which FetchEnd lets go
// (pmda.FetchEnder): the request's FetchSet calls run under it without
// taking it once a metric, and see the data of one moment, as pmdatrace's
// single thread answers a fetch between two programs' messages.
func (f fetcher) Refresh(ctx context.Context, pmids []pcp.PMID) error {
	f.a.mu.Lock()
	return nil
}

// FetchEnd lets go of the a.mu Refresh took.
func (f fetcher) FetchEnd() { f.a.mu.Unlock() }

// FetchSet fills one metric's values by pmdatrace's rules, under the a.mu
// Refresh took.
func (f fetcher) FetchSet(ctx context.Context, c pmda.Client, pmid pcp.PMID, p pmda.ProfileView, add func(int32, pcp.Type, *pcp.Atom) error) error {
	a := f.a
	if pmid.Domain() != a.pm.Domain() || pmid.Cluster() != 0 || pmid.Item() >= uint32(len(metricDefs)) {
		return pcp.ErrPMID
	}
	d := metricDefs[pmid.Item()]
	atom := &a.atom
	if d.of == 0 {
		*atom = pcp.Atom{}
		switch d.item {
		case itemPeriod:
			atom.UL = a.opts.seconds()
		case itemInterval:
			atom.UL = a.opts.seconds() / uint32(a.opts.Buckets)
		case itemBuckets:
			atom.UL = uint32(a.opts.Buckets)
		case itemPort:
			atom.UL = uint32(a.opts.Port)
		case itemReset:
			atom.UL = 1
		case itemDebug:
			atom.L = a.debug
		}
		return add(pcp.InstNull, d.typ, atom)
	}
	st := a.st
	st.summarise()
	es := st.instances(d.of)
	windowed := isWindowed(d.item)
	size := len(es)
	if windowed {
		size = st.inWindow(d.of)
	}
	if size == 0 {
		return pmda.ErrNoValue
	}
	indom := pcp.NewInDom(a.pm.Domain(), indomOf(d.of))
	selected := false
	secs := float64(a.opts.seconds())
	for _, e := range es {
		if !p.Selects(indom, e.id) {
			continue
		}
		selected = true
		*atom = pcp.Atom{}
		if windowed {
			w, ok := st.win[e.key]
			if !ok {
				continue // not in the window: no value
			}
			switch d.item {
			case itemTransactRate, itemPointRate, itemObserveRate, itemCounterRate:
				atom.F = float32(float64(w.count) / secs)
			case itemTransactAve:
				if w.count != 0 {
					atom.F = float32(w.sum / float64(w.count))
				}
			case itemTransactMin:
				atom.F = float32(w.min)
			case itemTransactMax:
				atom.F = float32(w.max)
			}
		} else {
			switch d.item {
			case itemTransactCount, itemPointCount, itemObserveCount, itemCounterCount:
				atom.ULL = e.count
			case itemTransactTotal:
				atom.D = e.total
			case itemObserveValue, itemCounterValue:
				atom.D = e.value
			}
		}
		if err := add(e.id, d.typ, atom); err != nil {
			return err
		}
	}
	if !selected {
		// pmdatrace walks off the end of a profile that selects none
		// of a non-empty domain and fails the whole fetch.
		return pmda.FailRequest(pcp.ErrInst)
	}
	return nil
}

// isWindowed says whether an item's values come from the window.
func isWindowed(item uint32) bool {
	switch item {
	case itemTransactRate, itemTransactAve, itemTransactMin, itemTransactMax, itemPointRate, itemObserveRate, itemCounterRate:
		return true
	}
	return false
}

// Store takes trace.control.reset (any value) and trace.control.debug (a
// 32-bit number), as PCP 6.0.3's pmdatrace does; anything else is
// PM_ERR_PMID.
func (f fetcher) Store(ctx context.Context, c pmda.Client, set *pcp.ValueSet) error {
	a := f.a
	if set.PMID.Domain() != a.pm.Domain() || set.PMID.Cluster() != 0 {
		return pcp.ErrPMID
	}
	switch set.PMID.Item() {
	case itemReset:
		a.Reset()
		return nil
	case itemDebug:
		// PCP 6.0.3 takes a 32-bit number here (later versions a
		// string of debug options).
		if set.NumVal != 1 || set.ValFmt != pcp.ValInSitu || len(set.Values) != 1 {
			return pcp.ErrBadStore
		}
		a.mu.Lock()
		a.debug = set.Values[0].LVal
		a.mu.Unlock()
		a.log.Printf("debug flags set to %d", set.Values[0].LVal)
		return nil
	}
	return pcp.ErrPMID
}
