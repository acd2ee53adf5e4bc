// Package jbd2 is PCP's jbd2 agent (domain 122): the journal statistics
// of ext3, ext4 and ocfs2 filesystems, which Linux's Journal Block Device
// layer (version 2) prints in /proc/fs/jbd2/DEVICE/info, one directory per
// journal. Metric names, PMIDs, descriptors, the instance domain (the
// directory names, numbered by an instance cache saved in PCP's
// config/pmda/122.0 file, pmda.Cache) and values follow PCP 6.0.3's
// pmdajbd2, the totals included, which are the kernel's averages times
// the transaction count; the help text is our own.
//
// The directory is read again at every fetch and instance request, as
// PCP's agent reads it. A missing directory, a journal whose info file
// cannot be opened, is not a regular file, or lacks the header or the
// averages line, is no instance; files are read within a bound and a
// directory of too many entries is not read (maxInfo, maxJournals).
//
// The agent returned by New is safe for concurrent use.
package jbd2

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"io"
	"log"
	"sync"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmda"
)

// Domain is the agent's domain number, JBD2 in PCP's domain.h.
const Domain = 122

// Name is the agent's name, as its daemon is called.
const Name = "pmdajbd2"

// DSOName is the agent's name in-process, as PCP's shared object calls
// itself.
const DSOName = "jbd2 DSO"

// DefaultDir is where the kernel puts the journals' directories.
const DefaultDir = "/proc/fs/jbd2"

// InDomSerial is the serial of the journals' instance domain.
const InDomSerial = 0

// pmid is a PMID of cluster 0 in Domain, written as a constant so that
// the package, linked into every tool for local contexts, has no
// initialisation to run.
func pmid(item uint32) pcp.PMID { return pcp.PMID(Domain<<22 | item) }

//go:embed help
var helpSource []byte

// Options configure New.
type Options struct {
	// Dir is the directory of journals; "" means DefaultDir. PCP's
	// daemon takes it with -j; its shared object always reads
	// DefaultDir.
	Dir string
	// CacheDir is where the instance cache file is kept; "" means
	// PCP's, $PCP_VAR_DIR/config/pmda.
	CacheDir string
	// Name is the agent's name; "" means Name.
	Name string
	// Log receives the agent's complaints (nil discards them).
	Log *log.Logger
}

var (
	count = pcp.Units{DimCount: 1, ScaleCount: pcp.CountOne}
	msec  = pcp.Units{DimTime: 1, ScaleTime: pcp.TimeMSec}
	usec  = pcp.Units{DimTime: 1, ScaleTime: pcp.TimeUSec}
)

// Metrics is the agent's metric table, in PCP's item order. The kernel's
// unsigned longs are 64-bit, as on every 64-bit host PCP builds for.
func Metrics() []pmda.Metric {
	in := pcp.NewInDom(Domain, InDomSerial)
	m := func(name string, item uint32, t pcp.Type, sem pcp.Sem, u pcp.Units) pmda.Metric {
		return pmda.Metric{Name: name, Desc: pcp.Desc{PMID: pmid(item), Type: t, InDom: in, Sem: sem, Units: u}}
	}
	const (
		u32, u64         = pcp.TypeU32, pcp.TypeU64
		counter, instant = pcp.SemCounter, pcp.SemInstant
	)
	njournals := m("jbd2.njournals", 0, u32, instant, count)
	njournals.Desc.InDom = pcp.InDomNull
	return []pmda.Metric{
		njournals,
		m("jbd2.transaction.count", 1, u64, counter, count),
		m("jbd2.transaction.requested", 2, u64, counter, count),
		m("jbd2.transaction.max_blocks", 3, u32, instant, pcp.Units{}),
		m("jbd2.transaction.total.time.waiting", 4, u64, counter, msec),
		m("jbd2.transaction.total.time.request_delay", 5, u64, counter, msec),
		m("jbd2.transaction.total.time.running", 6, u64, counter, msec),
		m("jbd2.transaction.total.time.being_locked", 7, u64, counter, msec),
		m("jbd2.transaction.total.time.flushing_ordered_mode_data", 8, u64, counter, msec),
		m("jbd2.transaction.total.time.logging", 9, u64, counter, msec),
		m("jbd2.transaction.total.blocks", 10, u64, counter, count),
		m("jbd2.transaction.total.blocks_logged", 11, u64, counter, count),
		m("jbd2.transaction.total.handles", 12, u64, counter, count),
		m("jbd2.transaction.average.time.waiting", 13, u32, instant, msec),
		m("jbd2.transaction.average.time.request_delay", 14, u32, instant, msec),
		m("jbd2.transaction.average.time.running", 15, u32, instant, msec),
		m("jbd2.transaction.average.time.being_locked", 16, u32, instant, msec),
		m("jbd2.transaction.average.time.flushing_ordered_mode_data", 17, u32, instant, msec),
		m("jbd2.transaction.average.time.logging", 18, u32, instant, msec),
		m("jbd2.transaction.average.time.committing", 19, u64, instant, usec),
		m("jbd2.transaction.average.blocks", 20, u64, instant, count),
		m("jbd2.transaction.average.blocks_logged", 21, u64, instant, count),
		m("jbd2.transaction.average.handles", 22, u64, instant, count),
	}
}

// agent is the jbd2 agent's state.
type agent struct {
	dir   string
	log   *log.Logger
	indom pcp.InDom

	mu     sync.Mutex
	cache  *pmda.Cache // private values are *journal
	loaded bool        // the cache file has been read
	saveOK bool        // the last save worked; a failure is said once
	rd     reader
	// active are the journals the last refresh found, a new slice at
	// each refresh (never changed after), so that a fetch's calls of
	// Instances, one per metric, share one.
	active []pmda.Instance
}

// New returns the jbd2 agent for domain (normally Domain).
func New(domain uint32, opts Options) (*pmda.Agent, error) {
	a := &agent{dir: opts.Dir, log: opts.Log, indom: pcp.NewInDom(domain, InDomSerial), saveOK: true}
	if a.dir == "" {
		a.dir = DefaultDir
	}
	if a.log == nil {
		a.log = log.New(io.Discard, "", 0)
	}
	a.cache = pmda.NewCache(a.indom)
	if opts.CacheDir != "" {
		a.cache.SetDir(opts.CacheDir)
	}
	metrics := Metrics()
	indoms := []pmda.InDom{{InDom: a.indom}}
	entries, err := pmda.ParseHelp(bytes.NewReader(helpSource), pmda.HelpOptions{
		File:    "help",
		Lookup:  pmda.MetricLookup(domain, metrics),
		Domains: map[string]uint32{"JBD2": domain},
	})
	if err != nil {
		return nil, fmt.Errorf("jbd2: help text: %w", err)
	}
	pmda.NewHelp(entries).Apply(domain, metrics, indoms)
	// PCP's agent has no namespace of its own: names come from pmcd's
	// namespace, and it answers no namespace requests.
	for i := range metrics {
		metrics[i].Name = ""
	}
	name := opts.Name
	if name == "" {
		name = Name
	}
	return pmda.New(pmda.Config{
		Name:    name,
		Domain:  domain,
		Metrics: metrics,
		InDoms:  indoms,
		Fetcher: a,
		Log:     a.log,
		// as PCP's jbd2 agent
		Interface: 4,
	})
}

// BeginRequest reads the journals before an instance request, as PCP's
// agent does; fetches read them in Refresh.
func (a *agent) BeginRequest(ctx context.Context, c pmda.Client, t pdu.Type, ident uint32) error {
	if t == pdu.TypeInstanceReq {
		a.mu.Lock()
		a.refresh()
		a.mu.Unlock()
	}
	return nil
}

// Refresh reads the journals once per fetch.
func (a *agent) Refresh(ctx context.Context, pmids []pcp.PMID) error {
	a.mu.Lock()
	a.refresh()
	a.mu.Unlock()
	return nil
}

// Instances lists the journals found by the last reading.
func (a *agent) Instances(ctx context.Context, c pmda.Client, indom pcp.InDom) ([]pmda.Instance, error) {
	if indom != a.indom {
		return nil, pcp.ErrInDom
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.active, nil
}

// Fetch answers one value, as PCP's agent computes it: the totals are
// the kernel's averages times the transaction count (request delay: times
// the requests), in 64-bit arithmetic that wraps; the averages in
// milliseconds are cut to 32 bits; the requested count and request delay
// have no value for a journal with the older header.
func (a *agent) Fetch(ctx context.Context, m *pmda.Metric, inst int32) (pcp.Atom, error) {
	id := m.Desc.PMID
	if id.Cluster() != 0 || id.Item() > 22 {
		return pcp.Atom{}, pcp.ErrPMID
	}
	item := id.Item()
	// Under a.mu, as the other items: an instance request's refresh may
	// run beside a fetch, and between its DeactivateAll and its last Add
	// the cache counts fewer journals than either reading found.
	a.mu.Lock()
	defer a.mu.Unlock()
	if item == 0 {
		return pcp.Atom{UL: uint32(len(a.active))}, nil
	}
	_, state, private, err := a.cache.Lookup(inst)
	if err != nil {
		return pcp.Atom{}, err
	}
	j, ok := private.(*journal)
	if state != pmda.CacheActive || !ok {
		return pcp.Atom{}, pcp.ErrInst
	}
	if j.version < 3 && (item == 2 || item == 5 || item == 14) {
		return pcp.Atom{}, pmda.ErrNoValue
	}
	switch item {
	case 1:
		return pcp.Atom{ULL: j.tid}, nil
	case 2:
		return pcp.Atom{ULL: j.requested}, nil
	case 3:
		return pcp.Atom{UL: j.maxBuffers}, nil
	case 5:
		return pcp.Atom{ULL: j.requestDelay * j.requested}, nil
	case 19:
		return pcp.Atom{ULL: j.commitTime}, nil
	}
	if item >= 20 {
		return pcp.Atom{ULL: *perTransaction(j, item-10)}, nil
	}
	if item >= 13 {
		return pcp.Atom{UL: uint32(*perTransaction(j, item-9))}, nil
	}
	return pcp.Atom{ULL: *perTransaction(j, item) * j.tid}, nil
}

// perTransaction is the average that the total of item (4 to 12) is
// made from.
func perTransaction(j *journal, item uint32) *uint64 {
	switch item {
	case 4:
		return &j.waiting
	case 5:
		return &j.requestDelay
	case 6:
		return &j.running
	case 7:
		return &j.locked
	case 8:
		return &j.flushing
	case 9:
		return &j.logging
	case 10:
		return &j.blocks
	case 11:
		return &j.blocksLogged
	}
	return &j.handles
}
