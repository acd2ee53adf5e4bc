// Package simple is PCP's simple agent (domain 253), the example the
// Programmer's Guide walks through: simple.numfetch (a fetch counter that
// pmstore can reset), simple.color (three saw-tooth values that pmstore
// can set), simple.time.user and simple.time.sys (the agent's own CPU
// times) and simple.now, whose instance domain is read from a
// configuration file and follows changes to it, kept in an instance cache
// (pmda.Cache). Names, PMIDs, descriptors, instance domains, labels and
// store answers are those of PCP 6.0.3's simple.c; the help text is our own.
//
// The agent returned by New is safe for concurrent use.
package simple

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gopcp/gopcp/internal/pcpconf"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
)

// Domain is the simple agent's domain number, SIMPLE in PCP's domain.h.
const Domain = 253

// Name is the agent's name, as its daemon is called.
const Name = "pmdasimple"

// The instance domain serials.
const (
	ColorInDom = 0
	NowInDom   = 1
)

// PMIDs of the metrics, in domain 253: pcp.NewPMID(Domain, cluster,
// item) written as constants (the domain above 12 bits of cluster, above
// 10 of item), so that this package, linked into every tool for local
// contexts, has no initialisation to run.
const (
	NumFetch = pcp.PMID(Domain<<22 | 0<<10 | 0)
	Color    = pcp.PMID(Domain<<22 | 0<<10 | 1)
	TimeUser = pcp.PMID(Domain<<22 | 1<<10 | 2)
	TimeSys  = pcp.PMID(Domain<<22 | 1<<10 | 3)
	Now      = pcp.PMID(Domain<<22 | 2<<10 | 4)
)

//go:embed help
var helpSource []byte

// Options configure New.
type Options struct {
	// Config is the configuration file naming simple.now's instances;
	// "" means $PCP_PMDAS_DIR/simple/simple.conf.
	Config string
	// Log receives the agent's complaints (nil discards them).
	Log *log.Logger
	// Name is the agent's name; "" means Name ("simple DSO" in-process,
	// as PCP calls its DSO agents).
	Name string
}

// DefaultConfig is where PCP keeps simple.conf.
func DefaultConfig() string {
	dir, _ := pcpconf.Get("PCP_PMDAS_DIR")
	if dir == "" {
		dir = "/var/lib/pcp/pmdas"
	}
	return filepath.Join(dir, "simple", "simple.conf")
}

var noUnits = pcp.Units{}

// Metrics is the agent's metric table, help text included.
func Metrics() []pmda.Metric {
	cpu := pcp.Units{DimTime: 1, ScaleTime: pcp.TimeSec}
	m := []pmda.Metric{
		{Name: "simple.numfetch", Desc: pcp.Desc{PMID: NumFetch, Type: pcp.TypeU32, InDom: pcp.InDomNull, Sem: pcp.SemInstant, Units: noUnits}},
		{Name: "simple.color", Desc: pcp.Desc{PMID: Color, Type: pcp.Type32, InDom: pcp.NewInDom(Domain, ColorInDom), Sem: pcp.SemInstant, Units: noUnits}},
		{Name: "simple.time.user", Desc: pcp.Desc{PMID: TimeUser, Type: pcp.TypeDouble, InDom: pcp.InDomNull, Sem: pcp.SemCounter, Units: cpu}},
		{Name: "simple.time.sys", Desc: pcp.Desc{PMID: TimeSys, Type: pcp.TypeDouble, InDom: pcp.InDomNull, Sem: pcp.SemCounter, Units: cpu}},
		{Name: "simple.now", Desc: pcp.Desc{PMID: Now, Type: pcp.TypeU32, InDom: pcp.NewInDom(Domain, NowInDom), Sem: pcp.SemInstant, Units: noUnits}},
	}
	return m
}

// InDoms is the agent's instance domain table; the "now" domain's
// members come from the cache at each request.
func InDoms() []pmda.InDom {
	return []pmda.InDom{
		{InDom: pcp.NewInDom(Domain, ColorInDom),
			Labels:    []pmda.Label{{Name: "indom_name", Value: "color"}, {Name: "model", Value: "RGB"}},
			Instances: []pmda.Instance{{ID: 0, Name: "red"}, {ID: 1, Name: "green"}, {ID: 2, Name: "blue"}}},
		{InDom: pcp.NewInDom(Domain, NowInDom),
			Labels: []pmda.Label{{Name: "indom_name", Value: "time"}, {Name: "unitsystem", Value: "SI"}}},
	}
}

// timeslice is one possible member of the "now" domain: a part of the
// local time, the cache's private value for the instance.
type timeslice struct {
	name  string
	value int32
}

// agent is the simple agent's state.
type agent struct {
	log    *log.Logger
	config string
	now    func() time.Time
	times  func() (user, sys float64)

	mu               sync.Mutex
	numfetch         uint32
	oldfetch         uint32
	red, green, blue int32
	user, sys        float64
	slices           []*timeslice
	cache            *pmda.Cache
	nowInDom         pcp.InDom
	colors           []pmda.Instance
	mtime            time.Time // of the configuration read; zero before any
	statErr          error     // the last failure to stat it, said once
}

// New returns the simple agent for domain (normally Domain).
func New(domain uint32, opts Options) (*pmda.Agent, error) {
	a := newAgent(domain, opts)
	metrics, indoms := Metrics(), InDoms()
	entries, err := pmda.ParseHelp(bytes.NewReader(helpSource), pmda.HelpOptions{
		File:    "help",
		Lookup:  pmda.MetricLookup(domain, metrics),
		Domains: map[string]uint32{"SIMPLE": domain},
	})
	if err != nil {
		return nil, fmt.Errorf("simple: help text: %w", err)
	}
	pmda.NewHelp(entries).Apply(domain, metrics, indoms)
	// simple.c's names live in pmcd's namespace only: like it, the agent
	// answers no namespace requests (PM_ERR_NAME, PM_ERR_PMID).
	for i := range metrics {
		metrics[i].Name = ""
	}
	a.colors = indoms[ColorInDom].Instances
	name := opts.Name
	if name == "" {
		name = Name
	}
	ag, err := pmda.New(pmda.Config{
		Name:    name,
		Domain:  domain,
		Metrics: metrics,
		InDoms:  indoms,
		Labels:  domainLabels,
		// simple.c sets its domain labels itself
		OwnDomainLabels: true,
		Fetcher:         a,
		Log:             a.log,
	})
	if err != nil {
		return nil, err
	}
	a.mu.Lock()
	a.check()
	a.mu.Unlock()
	return ag, nil
}

func newAgent(domain uint32, opts Options) *agent {
	a := &agent{
		log:    opts.Log,
		config: opts.Config,
		now:    time.Now,
		times:  processTimes,
		green:  100,
		blue:   200,
		slices: []*timeslice{{name: "sec"}, {name: "min"}, {name: "hour"}},
	}
	if a.log == nil {
		a.log = log.New(io.Discard, "", 0)
	}
	if a.config == "" {
		a.config = DefaultConfig()
	}
	a.nowInDom = pcp.NewInDom(domain, NowInDom)
	a.cache = pmda.NewCache(a.nowInDom)
	return a
}

// processTimes is the agent's own user and system CPU time in seconds.
func processTimes() (user, sys float64) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, 0
	}
	sec := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return sec(ru.Utime), sec(ru.Stime)
}

// Refresh runs once per fetch request: it counts the request, follows
// changes to the configuration and reads the clock.
func (a *agent) Refresh(ctx context.Context, pmids []pcp.PMID) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.numfetch++
	a.check()
	t := a.now()
	a.slices[0].value = int32(t.Second())
	a.slices[1].value = int32(t.Minute())
	a.slices[2].value = int32(t.Hour())
	return nil
}

// Fetch answers one value.
func (a *agent) Fetch(ctx context.Context, m *pmda.Metric, inst int32) (pcp.Atom, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	id := m.Desc.PMID
	cluster, item := id.Cluster(), id.Item()
	if inst != pcp.InstNull && !(cluster == 0 && item == 1) && !(cluster == 2 && item == 4) {
		return pcp.Atom{}, pcp.ErrInst
	}
	switch {
	case cluster == 0 && item == 0:
		return pcp.Atom{UL: a.numfetch}, nil
	case cluster == 0 && item == 1:
		var v *int32
		switch inst {
		case 0:
			v = &a.red
		case 1:
			v = &a.green
		case 2:
			v = &a.blue
		default:
			return pcp.Atom{}, pcp.ErrInst
		}
		*v = (*v + 1) % 256
		return pcp.Atom{L: *v}, nil
	case cluster == 1 && (item == 2 || item == 3):
		// The times are read once per request, the first time a
		// request wants them.
		if a.oldfetch < a.numfetch {
			a.user, a.sys = a.times()
			a.oldfetch = a.numfetch
		}
		if item == 2 {
			return pcp.Atom{D: a.user}, nil
		}
		return pcp.Atom{D: a.sys}, nil
	case cluster == 2 && item == 4:
		_, state, private, err := a.cache.Lookup(inst)
		if err != nil || state != pmda.CacheActive {
			return pcp.Atom{}, pcp.ErrInst
		}
		return pcp.Atom{UL: uint32(private.(*timeslice).value)}, nil
	}
	return pcp.Atom{}, pcp.ErrPMID
}

// Instances lists an instance domain's members: the colours, or the
// cache's active entries after a look at the configuration file, each
// labelled with its units.
func (a *agent) Instances(ctx context.Context, c pmda.Client, indom pcp.InDom) ([]pmda.Instance, error) {
	switch indom {
	case a.nowInDom:
		a.mu.Lock()
		a.check()
		a.mu.Unlock()
		insts := a.cache.Active()
		for i := range insts {
			insts[i].Labels = []pmda.Label{{Name: "units", Value: insts[i].Name}}
		}
		return insts, nil
	case pcp.NewInDom(indom.Domain(), ColorInDom):
		return a.colors, nil
	}
	return nil, pcp.ErrInDom
}

// domainLabels are simple.c's own domain labels; they replace the
// {"agent":NAME} default, as libpcp_pmda gives that only to agents that set
// none of their own.
var domainLabels = []pmda.Label{{Name: "role", Value: "testing"}}

// Store sets simple.numfetch or the colours, with simple.c's answers:
// PM_ERR_BADSTORE for a value out of range (which is clamped and stored),
// PM_ERR_PERMISSION for the other metrics.
func (a *agent) Store(ctx context.Context, c pmda.Client, set *pcp.ValueSet) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	id := set.PMID
	cluster, item := id.Cluster(), id.Item()
	switch {
	case cluster == 0 && item == 0:
		if len(set.Values) == 0 {
			return nil
		}
		v := set.Values[0].LVal
		var err error
		if v < 0 {
			v, err = 0, pcp.ErrBadStore
		}
		a.numfetch = uint32(v)
		return err
	case cluster == 0 && item == 1:
		for _, val := range set.Values {
			v := val.LVal
			var err error
			if v < 0 {
				v, err = 0, pcp.ErrBadStore
			} else if v > 255 {
				v, err = 255, pcp.ErrBadStore
			}
			switch val.Inst {
			case 0:
				a.red = v
			case 1:
				a.green = v
			case 2:
				a.blue = v
			default:
				err = pcp.ErrInst
			}
			if err != nil {
				return err
			}
		}
		return nil
	case cluster == 1 && (item == 2 || item == 3), cluster == 2 && item == 4:
		return pcp.ErrPermission
	}
	return pcp.ErrPMID
}

// check follows the configuration file: when it cannot be read the "now"
// domain empties; when its modification time changes it is read again.
// The caller holds a.mu.
func (a *agent) check() {
	st, err := os.Stat(a.config)
	if err != nil {
		if a.statErr == nil || a.statErr.Error() != err.Error() {
			a.log.Printf("stat failed on %s: %v", a.config, errors.Unwrap(err))
		}
		a.statErr = err
		a.cache.DeactivateAll()
		return
	}
	a.statErr = nil
	if st.ModTime().Equal(a.mtime) {
		return
	}
	a.cache.DeactivateAll()
	a.read()
	a.mtime = st.ModTime()
}

// read takes the members of the "now" domain from the configuration's
// first line, a comma-separated list of "sec", "min" and "hour".
func (a *agent) read() {
	b, err := os.ReadFile(a.config)
	if err != nil {
		a.log.Printf("cannot read %s: %v", a.config, err)
		return
	}
	line, _, _ := strings.Cut(string(b), "\n")
	if line == "" {
		a.log.Printf("%s: no data on its first line", a.config)
	}
	for _, name := range strings.Split(line, ",") {
		if name == "" {
			continue
		}
		found := false
		for _, ts := range a.slices {
			if ts.name == name {
				if _, err := a.cache.Add(name, ts); err != nil {
					a.log.Printf("adding %q to the now instance domain: %v", name, err)
					return
				}
				found = true
				break
			}
		}
		if !found {
			a.log.Printf("ignoring %q in %s", name, a.config)
		}
	}
	if a.cache.SizeActive() < 1 {
		a.log.Printf("the \"now\" instance domain is empty")
	}
}
