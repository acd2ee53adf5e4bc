package pmda

import (
	"fmt"
	"io"
	"log"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmns"
)

// Config describes an agent to New.
type Config struct {
	// Name is the agent's name, such as "pmdatrivial". Its domain label
	// is {"agent":NAME} with a leading "pmda" and a trailing " DSO" taken
	// off, as PCP does.
	Name string
	// Domain is the agent's PMID domain number (1..510).
	Domain uint32
	// Metrics is the metric table; PMIDs must be unique.
	Metrics []Metric
	// MetricsOwned gives Metrics to the agent: New keeps it, and
	// rewrites its entries, rather than copying it. An agent with a
	// large table built at every start (linux's, for -L) saves the copy.
	// New writes only the PMIDs and InDoms not yet in Domain, so a
	// table already in Domain is only read and may be shared by agents
	// of that domain (linux's is data laid out by the compiler).
	MetricsOwned bool
	// InDoms is the instance domain table.
	InDoms []InDom
	// Labels are the agent's domain labels, besides "agent".
	Labels []Label
	// OwnDomainLabels makes Labels the whole domain label set: the
	// {"agent":NAME} label is then given only when Labels is empty, as
	// libpcp_pmda gives its default only to an agent whose label
	// callback sets no domain labels.
	OwnDomainLabels bool
	// ClusterLabels are labels per PMID cluster number.
	ClusterLabels map[uint32][]Label
	// Fetcher supplies values; it is required. It may also implement
	// Refresher, Storer, ContextEnder and Attributer.
	Fetcher Fetcher
	// Flags are asked of pmcd at the handshake: pdu.FlagAuth to have
	// client credentials forwarded, pdu.FlagContainer for container
	// names. Both reach an Attributer.
	Flags pdu.Flags
	// Log receives what the agent reports on its way, as a PCP agent's
	// log file does; nil discards it.
	Log *log.Logger
	// Interface is the PMDA interface version (PCP's PMDA_INTERFACE_N)
	// the agent's PCP counterpart declares, which pmcd shows in its
	// agent table; zero means 7, the latest. Below 7 the agent has no
	// labels of its own, as PCP's has no label callback (see Label);
	// gopcp agents answer the other requests of every interface.
	Interface int
}

// Agent serves one PMDA's metrics. Build it with New; see the package
// documentation for its concurrency rules.
type Agent struct {
	name    string
	domain  uint32
	flags   pdu.Flags
	fetcher Fetcher
	labels  []Label
	ownDom  bool
	cluster map[uint32][]Label
	log     *log.Logger
	iface   int

	metrics metricIndex // the table, in its order, by PMID
	indoms  map[pcp.InDom]*InDom
	// names is the tree of the metrics' names, built when a name is
	// first asked (namesTree): most agents are never asked, and an
	// agent with a large table (linux's) is built at every start of a
	// tool with a local context. New checks the names as the tree would.
	namesOnce sync.Once
	names     *pmns.Tree // nil when no metric has a name

	mu      sync.Mutex
	profile profile
	// result is Fetch's answer, in the PDU Handle replies with.
	result pdu.Result
	arena  []byte
	adder  setAdder // Fetch's, for SetFetchers
	// changes are the Change bits noted for the next fetch's answer.
	changes atomic.Uint32
	// life is what Close ends (lifecycle.go).
	life lifecycle
}

// New checks cfg and builds an Agent. The tables are copied, with the
// agent's domain put into every PMID and InDom. Domain 0 is allowed, as
// libpcp_pmda allows it: dbpmda's "open dso" without a domain and a
// pmcd.conf line with domain 0 both run an agent there.
func New(cfg Config) (*Agent, error) {
	if cfg.Domain >= pcp.MaxDomain {
		return nil, fmt.Errorf("pmda: %s: bad domain %d", cfg.Name, cfg.Domain)
	}
	if cfg.Fetcher == nil {
		return nil, fmt.Errorf("pmda: %s: no Fetcher", cfg.Name)
	}
	a := &Agent{
		name:    cfg.Name,
		domain:  cfg.Domain,
		flags:   cfg.Flags,
		fetcher: cfg.Fetcher,
		labels:  cfg.Labels,
		ownDom:  cfg.OwnDomainLabels,
		cluster: cfg.ClusterLabels,
		log:     cfg.Log,
		iface:   cfg.Interface,
		indoms:  make(map[pcp.InDom]*InDom, len(cfg.InDoms)),
	}
	if a.log == nil {
		a.log = log.New(io.Discard, "", 0)
	}
	for i := range cfg.InDoms {
		d := cfg.InDoms[i]
		d.InDom = pcp.NewInDom(cfg.Domain, d.InDom.Serial())
		if _, dup := a.indoms[d.InDom]; dup {
			return nil, fmt.Errorf("pmda: %s: instance domain %v twice", cfg.Name, d.InDom)
		}
		a.indoms[d.InDom] = &d
	}
	// One copy of the table, which the map points into.
	ms := cfg.Metrics
	if !cfg.MetricsOwned {
		ms = slices.Clone(ms)
	}
	for i := range ms {
		m := &ms[i]
		// Written only where the domain differs: a table already in
		// the agent's domain is only read, and may be shared.
		id := m.Desc.PMID
		if in := pcp.NewPMID(cfg.Domain, id.Cluster(), id.Item()); in != id {
			m.Desc.PMID = in
		}
		if m.Desc.InDom != pcp.InDomNull {
			if in := pcp.NewInDom(cfg.Domain, m.Desc.InDom.Serial()); in != m.Desc.InDom {
				m.Desc.InDom = in
			}
			if _, ok := a.indoms[m.Desc.InDom]; !ok {
				return nil, fmt.Errorf("pmda: %s: metric %v: unknown instance domain %v", cfg.Name, m.Desc.PMID, m.Desc.InDom)
			}
		}
	}
	if id, ok := a.metrics.build(cfg.Domain, ms); !ok {
		return nil, fmt.Errorf("pmda: %s: metric %v twice", cfg.Name, id)
	}
	if err := checkNames(ms); err != nil {
		return nil, fmt.Errorf("pmda: %s: %w", cfg.Name, err)
	}
	return a, nil
}

// namesTree is the tree of the metrics' names, nil when none has one.
func (a *Agent) namesTree() *pmns.Tree {
	a.namesOnce.Do(func() {
		for i := range a.metrics.ms {
			if m := &a.metrics.ms[i]; m.Name != "" {
				if a.names == nil {
					a.names = pmns.New()
				}
				_ = a.names.Add(m.Name, m.Desc.PMID) // checked by New
			}
		}
	})
	return a.names
}

// Name is the agent's name.
func (a *Agent) Name() string { return a.name }

// Domain is the agent's domain number.
func (a *Agent) Domain() uint32 { return a.domain }

// Interface is the PMDA interface version of Config.Interface, 7 when
// it was not set.
func (a *Agent) Interface() int {
	if a.iface == 0 {
		return latestInterface
	}
	return a.iface
}

// latestInterface is PCP 6.0.3's PMDA_INTERFACE_LATEST.
const latestInterface = 7

// Flags are the connection features the agent asks pmcd for.
func (a *Agent) Flags() pdu.Flags { return a.flags }

// Metric returns the table entry of pmid, or nil.
func (a *Agent) Metric(pmid pcp.PMID) *Metric { return a.metrics.get(pmid) }

// labelName is the agent's name as PCP shows it in the "agent" label.
func labelName(name string) string {
	if len(name) > 4 && strings.HasPrefix(name, "pmda") {
		name = name[4:]
	}
	if len(name) > 4 && strings.HasSuffix(name, " DSO") {
		name = name[:len(name)-4]
	}
	return name
}
