package pmapi

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/gopcp/gopcp/archive"
	"github.com/gopcp/gopcp/internal/hostlabels"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmapi/internal/profile"
	"github.com/gopcp/gopcp/pmns"
)

// Mode is how an archive context moves through time, PCP's PM_MODE_*.
type Mode int

// The archive modes, with PCP's numbers.
const (
	ModeInterp Mode = 1 // PM_MODE_INTERP: values at evenly spaced times, interpolated
	ModeForw   Mode = 2 // PM_MODE_FORW: the archive's records, forwards
	ModeBack   Mode = 3 // PM_MODE_BACK: the archive's records, backwards
)

// ArchiveContext is a PM_CONTEXT_ARCHIVE context: metrics read from a PCP
// archive, or from several archives of one host taken as one (a list or
// a directory), as pmNewContext opens them. Names, descriptors, instance
// domains, help text and labels come from the archives' metadata (the
// instance domains and labels in force at the context's current time);
// Fetch reads the records according to SetMode. Store answers
// pcp.ErrNotHost.
//
// An ArchiveContext is safe for concurrent use; its calls are serialized.
// Close it when done: in ModeInterp it reads the archive lazily, from a
// walk parked between fetches (a coroutine, iter.Pull) that holds its
// reader until the walk ends or the context is closed.
type ArchiveContext struct {
	name string
	opts options

	mu      sync.Mutex
	logs    []*archive.Archive // in time order
	cur     int                // the archive the reader is in
	rd      *archive.Reader    // opened when first read from
	tree    *pmns.Tree         // the archives' names, built when first needed
	profile profile.Profile
	closed  bool

	textKinds map[uint32]bool // the kinds of help text the archive holds
	trim      bool            // TrimNames was called

	mode    Mode
	origin  pcp.Timestamp
	delta   time.Duration // the interpolation step, negative backwards
	interp  *interpolator
	scratch pcp.Result

	// want is the metrics of a ModeForw or ModeBack fetch, the value
	// sets the reader picks from each record; mark says whether the last
	// record read was a <mark>
	want []pcp.PMID
	// picks is fetchRecord's scratch
	picks []setPick
	mark  bool
}

var _ Source = (*ArchiveContext)(nil)

// NewArchiveContext opens an archive context: name is an archive (its
// base name or the name of one of its files), a comma-separated list of
// archives, or a directory holding archives, as pmNewContext accepts
// them. The archives of a list or directory must come from one host and
// not overlap in time (pcp.ErrLogHost, pcp.ErrLogOverlap). The context
// starts as libpcp's does: at the first archive's start, reading forwards
// (ModeForw).
func NewArchiveContext(ctx context.Context, name string, opts ...Option) (*ArchiveContext, error) {
	c := &ArchiveContext{name: name, mode: ModeForw}
	for _, o := range opts {
		o(&c.opts)
	}
	logs, err := openArchives(name)
	if err != nil {
		return nil, fmt.Errorf("pmapi: archive %q: %w", name, err)
	}
	c.logs = logs
	c.profile.Reset(pdu.ProfileInclude)
	c.origin = logs[0].Label.Start
	return c, nil
}

// Kind is KindArchive.
func (c *ArchiveContext) Kind() Kind { return KindArchive }

// Close ends the context.
func (c *ArchiveContext) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return fmt.Errorf("pmapi: Close: %w", pcp.ErrNoContext)
	}
	c.closed = true
	if c.rd != nil {
		c.rd.Close()
	}
	if c.interp != nil {
		c.interp.close()
	}
	return nil
}

// Label is pmGetArchiveLabel: the label of the first archive.
func (c *ArchiveContext) Label() archive.Label { return c.logs[0].Label }

// Archives are the archives of the context, in time order.
func (c *ArchiveContext) Archives() []*archive.Archive { return slices.Clone(c.logs) }

// Start is the time of the context's first archive's label.
func (c *ArchiveContext) Start() pcp.Timestamp { return c.logs[0].Label.Start }

// End is pmGetArchiveEnd: the time of the last record of the last
// archive.
func (c *ArchiveContext) End() (pcp.Timestamp, error) {
	var last error
	for i := len(c.logs) - 1; i >= 0; i-- {
		t, err := c.logs[i].End()
		if err == nil {
			return t, nil
		}
		last = err
	}
	return pcp.Timestamp{}, fmt.Errorf("pmapi: End: %w", last)
}

// HostName is the host the archive's label names.
func (c *ArchiveContext) HostName(context.Context) (string, error) {
	return c.logs[0].Label.Hostname, nil
}

// TimeZone is the archive's time zone as pmNewContextZone takes it: the
// label's POSIX TZ (version 3 archives also record a zoneinfo name,
// which libpcp 6.0.3 does not use for this).
func (c *ArchiveContext) TimeZone(context.Context) (string, error) {
	return c.logs[0].Label.Timezone, nil
}

// Origin is the context's current time: where the next fetch reads from.
func (c *ArchiveContext) Origin() pcp.Timestamp {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.origin
}

// meta is the metadata of the archive holding the current time, where
// libpcp looks for instance domains and labels.
func (c *ArchiveContext) meta() *archive.Meta { return c.logs[c.cur].Meta }

// Store is refused: archives cannot be changed (pcp.ErrNotHost).
func (c *ArchiveContext) Store(context.Context, *pcp.Result) error {
	return fmt.Errorf("pmapi: Store: %w", pcp.ErrNotHost)
}

// names gives the namespace answering name questions: -n's when given,
// else the one built from the archives' metric names.
func (c *ArchiveContext) names() *pmns.Tree {
	if c.opts.ns != nil {
		return c.opts.ns
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tree == nil {
		t := pmns.New()
		for _, a := range c.logs {
			all, _ := a.Meta.Traverse("")
			for i := len(all) - 1; i >= 0; i-- {
				if id, err := a.Meta.LookupName(all[i]); err == nil {
					_ = t.Add(all[i], id) // a clash keeps the first, as libpcp does
				}
			}
		}
		c.tree = t
	}
	return c.tree
}

// LookupName returns the PMID of a metric name.
func (c *ArchiveContext) LookupName(ctx context.Context, name string) (pcp.PMID, error) {
	if c.opts.ns == nil && len(c.logs) == 1 {
		id, err := c.logs[0].Meta.LookupName(name)
		if err != nil {
			return pcp.PMIDNull, fmt.Errorf("pmapi: LookupName %q: %w", name, err)
		}
		return id, nil
	}
	id, err := c.names().Lookup(name)
	if err != nil {
		return pcp.PMIDNull, fmt.Errorf("pmapi: LookupName %q: %w", name, err)
	}
	return id, nil
}

// LookupNames is pmLookupName: names not found get pcp.PMIDNull, and
// only a single name fails the call.
func (c *ArchiveContext) LookupNames(ctx context.Context, names []string) ([]pcp.PMID, error) {
	if len(names) == 0 {
		return nil, fmt.Errorf("pmapi: LookupNames: %w", pcp.ErrTooSmall)
	}
	ids := make([]pcp.PMID, len(names))
	for i, name := range names {
		id, err := c.LookupName(ctx, name)
		if err != nil {
			if len(names) == 1 {
				return []pcp.PMID{pcp.PMIDNull}, err
			}
			id = pcp.PMIDNull
		}
		ids[i] = id
	}
	return ids, nil
}

// NameID returns a name of a PMID.
func (c *ArchiveContext) NameID(ctx context.Context, pmid pcp.PMID) (string, error) {
	names, err := c.NameAll(ctx, pmid)
	if err != nil {
		return "", fmt.Errorf("pmapi: NameID %s: %w", pmid, err)
	}
	return names[0], nil
}

// NameAll returns every name of a PMID.
func (c *ArchiveContext) NameAll(ctx context.Context, pmid pcp.PMID) ([]string, error) {
	if c.opts.ns == nil && len(c.logs) == 1 {
		names, err := c.logs[0].Meta.Names(pmid)
		if err != nil {
			return nil, fmt.Errorf("pmapi: NameAll %s: %w", pmid, err)
		}
		return slices.Clone(names), nil
	}
	names, err := c.names().NameAll(pmid)
	if err != nil {
		return nil, fmt.Errorf("pmapi: NameAll %s: %w", pmid, err)
	}
	return names, nil
}

// Children returns the names one level below a node.
func (c *ArchiveContext) Children(ctx context.Context, name string) ([]string, error) {
	kids, err := c.ChildrenStatus(ctx, name)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(kids))
	for i, k := range kids {
		out[i] = k.Name
	}
	return out, nil
}

// ChildrenStatus is Children with whether each child is a metric.
func (c *ArchiveContext) ChildrenStatus(ctx context.Context, name string) ([]pmns.Child, error) {
	if c.opts.ns == nil && len(c.logs) == 1 {
		// The archive's own name tree answers, as for Traverse: building
		// a namespace of every name for this was most of what pminfo -a
		// allocated for names.
		var kids []pmns.Child
		err := c.logs[0].Meta.Children(name, func(child string, pmid pcp.PMID, inner bool) {
			kids = append(kids, pmns.Child{Name: child, Leaf: !inner && !pmns.IsDynamicRoot(pmid)})
		})
		if err != nil {
			return nil, fmt.Errorf("pmapi: Children %q: %w", name, err)
		}
		return kids, nil
	}
	kids, err := c.names().Children(name)
	if err != nil {
		return nil, fmt.Errorf("pmapi: Children %q: %w", name, err)
	}
	if c.opts.ns != nil && c.trimmed() {
		if id, err := c.opts.ns.Lookup(name); err == nil && len(kids) == 0 {
			// a leaf the archive lacks is trimmed away
			if _, err := c.LookupDesc(ctx, id); err != nil {
				return nil, fmt.Errorf("pmapi: Children %q: %w", name, pcp.ErrName)
			}
		}
		kept := kids[:0:0]
		for _, k := range kids {
			full := k.Name
			if name != "" {
				full = name + "." + k.Name
			}
			if names, err := c.Traverse(ctx, full); err == nil && len(names) > 0 {
				kept = append(kept, k)
			}
		}
		if len(kept) == 0 && len(kids) > 0 && name != "" {
			// a node with no metric of the archive below it is trimmed
			// away with its leaves
			return nil, fmt.Errorf("pmapi: Children %q: %w", name, pcp.ErrName)
		}
		kids = kept
	}
	return kids, nil
}

// Traverse returns the metric names at or below a node, in the order
// libpcp's archive namespace gives them.
func (c *ArchiveContext) Traverse(ctx context.Context, name string) ([]string, error) {
	if c.opts.ns == nil && len(c.logs) == 1 {
		names, err := c.logs[0].Meta.Traverse(name)
		if err != nil {
			return nil, fmt.Errorf("pmapi: Traverse %q: %w", name, err)
		}
		return names, nil
	}
	names, err := c.names().Traverse(name)
	if err != nil {
		return nil, fmt.Errorf("pmapi: Traverse %q: %w", name, err)
	}
	if c.opts.ns != nil && c.trimmed() {
		kept := names[:0]
		for _, n := range names {
			if id, err := c.opts.ns.Lookup(n); err == nil {
				if _, err := c.LookupDesc(ctx, id); err == nil {
					kept = append(kept, n)
				}
			}
		}
		names = kept
		if len(names) == 0 {
			// libpcp's trim hides every node with no metric of the
			// archive below it, so such a name is not there at all
			return nil, fmt.Errorf("pmapi: Traverse %q: %w", name, pcp.ErrName)
		}
	}
	return names, nil
}

// TrimNames is pmTrimNameSpace: with a namespace given (WithNamespace),
// traversals leave out the metrics the archives do not describe.
func (c *ArchiveContext) TrimNames() {
	c.mu.Lock()
	c.trim = true
	c.mu.Unlock()
}

func (c *ArchiveContext) trimmed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.trim
}

// LookupDesc returns a metric's descriptor; pcp.ErrPMIDLog when the
// archives do not describe it.
func (c *ArchiveContext) LookupDesc(ctx context.Context, pmid pcp.PMID) (pcp.Desc, error) {
	for i := len(c.logs) - 1; i >= 0; i-- {
		if d, err := c.logs[i].Meta.Desc(pmid); err == nil {
			return d, nil
		}
	}
	return pcp.Desc{}, fmt.Errorf("pmapi: LookupDesc %s: %w", pmid, pcp.ErrPMIDLog)
}

// LookupDescs is LookupDesc for several metrics, as pmLookupDescs: the
// descriptors of metrics the archives lack have pcp.PMIDNull, and only a
// single metric fails the call.
func (c *ArchiveContext) LookupDescs(ctx context.Context, pmids []pcp.PMID) ([]pcp.Desc, error) {
	return LookupDescsEach(ctx, pmids, c.LookupDesc)
}

// indomNow is the instance domain in force at the context's time, as
// pmGetInDom finds it in an archive.
func (c *ArchiveContext) indomNow(indom pcp.InDom) (*archive.InDom, error) {
	c.mu.Lock()
	t := c.origin
	c.mu.Unlock()
	var last error = pcp.ErrInDomLog
	for i := len(c.logs) - 1; i >= 0; i-- {
		id, err := c.logs[i].Meta.InDomAt(indom, t)
		if err == nil {
			return id, nil
		}
		last = err
	}
	return nil, last
}

// GetInDom returns the instances of indom at the context's current time.
func (c *ArchiveContext) GetInDom(ctx context.Context, indom pcp.InDom) ([]Instance, error) {
	if indom == pcp.InDomNull {
		return nil, fmt.Errorf("pmapi: GetInDom: %w", pcp.ErrInDom)
	}
	id, err := c.indomNow(indom)
	if err != nil {
		return nil, fmt.Errorf("pmapi: GetInDom %s: %w", indom, err)
	}
	out := make([]Instance, len(id.Insts))
	for i := range id.Insts {
		out[i] = Instance{Inst: id.Insts[i], Name: id.Names[i]}
	}
	return out, nil
}

// LookupInDom returns the instance of indom named name at the context's
// current time.
func (c *ArchiveContext) LookupInDom(ctx context.Context, indom pcp.InDom, name string) (int32, error) {
	if indom == pcp.InDomNull {
		return 0, fmt.Errorf("pmapi: LookupInDom: %w", pcp.ErrInDom)
	}
	c.mu.Lock()
	t := c.origin
	c.mu.Unlock()
	inst, err := c.meta().LookupInDom(indom, name, t)
	if err != nil {
		return 0, fmt.Errorf("pmapi: LookupInDom %s %q: %w", indom, name, err)
	}
	return inst, nil
}

// NameInDom returns the name of an instance at the context's current
// time.
func (c *ArchiveContext) NameInDom(ctx context.Context, indom pcp.InDom, inst int32) (string, error) {
	if indom == pcp.InDomNull {
		return "", fmt.Errorf("pmapi: NameInDom: %w", pcp.ErrInDom)
	}
	c.mu.Lock()
	t := c.origin
	c.mu.Unlock()
	name, err := c.meta().NameInDom(indom, inst, t)
	if err != nil {
		return "", fmt.Errorf("pmapi: NameInDom %s %d: %w", indom, inst, err)
	}
	return name, nil
}

// GetInDomArchive is pmGetInDomArchive: every instance indom has had in
// the archive, newest records first, each instance once with the name it
// was last recorded with.
func (c *ArchiveContext) GetInDomArchive(indom pcp.InDom) ([]Instance, error) {
	if indom == pcp.InDomNull {
		return nil, fmt.Errorf("pmapi: GetInDomArchive: %w", pcp.ErrInDom)
	}
	var out []Instance
	seen := map[int32]bool{}
	found := false
	for i := len(c.logs) - 1; i >= 0; i-- {
		c.logs[i].Meta.EachInDom(func(id pcp.InDom, history []*archive.InDom) {
			if id != indom {
				return
			}
			found = true
			for j := len(history) - 1; j >= 0; j-- {
				h := history[j]
				for k, inst := range h.Insts {
					if h.Delta && h.Deleted != nil && h.Deleted[k] {
						continue
					}
					if !seen[inst] {
						seen[inst] = true
						out = append(out, Instance{Inst: inst, Name: h.Names[k]})
					}
				}
			}
		})
	}
	if !found {
		return nil, fmt.Errorf("pmapi: GetInDomArchive %s: %w", indom, pcp.ErrInDomLog)
	}
	return out, nil
}

// LookupInDomArchive is pmLookupInDomArchive: the instance of indom
// named name at any time in the archive.
func (c *ArchiveContext) LookupInDomArchive(indom pcp.InDom, name string) (int32, error) {
	insts, err := c.GetInDomArchive(indom)
	if err != nil {
		return 0, err
	}
	for _, in := range insts {
		if in.Name == name {
			return in.Inst, nil
		}
	}
	for _, in := range insts {
		if j := indexByte(in.Name, ' '); j >= 0 && len(name) >= j && name[:j] == in.Name[:j] && (len(name) == j || name[j] == ' ') {
			return in.Inst, nil
		}
	}
	return 0, fmt.Errorf("pmapi: LookupInDomArchive %s %q: %w", indom, name, pcp.ErrInstLog)
}

// NameInDomArchive is pmNameInDomArchive: the name of an instance at any
// time in the archive.
func (c *ArchiveContext) NameInDomArchive(indom pcp.InDom, inst int32) (string, error) {
	insts, err := c.GetInDomArchive(indom)
	if err != nil {
		return "", err
	}
	for _, in := range insts {
		if in.Inst == inst {
			return in.Name, nil
		}
	}
	return "", fmt.Errorf("pmapi: NameInDomArchive %s %d: %w", indom, inst, pcp.ErrInstLog)
}

func indexByte(s string, b byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == b {
			return i
		}
	}
	return -1
}

// LookupText returns a metric's help text from the archives; pcp.ErrText
// when they hold none.
func (c *ArchiveContext) LookupText(ctx context.Context, pmid pcp.PMID, level TextLevel) (string, error) {
	return c.text(archive.TextPMID, uint32(pmid), level)
}

// LookupInDomText returns an instance domain's help text.
func (c *ArchiveContext) LookupInDomText(ctx context.Context, indom pcp.InDom, level TextLevel) (string, error) {
	return c.text(archive.TextInDom, uint32(indom), level)
}

func (c *ArchiveContext) text(kind, ident uint32, level TextLevel) (string, error) {
	if level == TextHelp {
		// no full text, or an empty one: libpcp gives the one-line text
		if s, err := c.textOf(kind, archive.TextHelp, ident); err == nil && s != "" {
			return s, nil
		}
		return c.textOf(kind, archive.TextOneLine, ident)
	}
	return c.textOf(kind, archive.TextOneLine, ident)
}

func (c *ArchiveContext) textOf(kind, class, ident uint32) (string, error) {
	// libpcp's archive answer: PM_ERR_NOTHOST when the archive has no
	// text of the kind at all, PM_ERR_TEXT when just not this one
	m := c.logs[c.cur].Meta
	if s, err := m.Text(kind, class, ident); err == nil {
		return s, nil
	}
	c.mu.Lock()
	if c.textKinds == nil {
		c.textKinds = map[uint32]bool{}
		for _, h := range m.HelpTexts() {
			c.textKinds[h.Kind|h.Class] = true
		}
	}
	has := c.textKinds[kind|class]
	c.mu.Unlock()
	if !has {
		return "", fmt.Errorf("pmapi: LookupText: %w", pcp.ErrNotHost)
	}
	return "", fmt.Errorf("pmapi: LookupText: %w", pcp.ErrText)
}

// The label levels, PM_LABEL_*.
const (
	labelContext   = 1 << 0
	labelDomain    = 1 << 1
	labelInDom     = 1 << 2
	labelCluster   = 1 << 3
	labelItem      = 1 << 4
	labelInstances = 1 << 5
)

func (c *ArchiveContext) labels(typ, ident uint32) ([]pcp.LabelSet, error) {
	c.mu.Lock()
	t := c.origin
	c.mu.Unlock()
	sets, err := c.meta().LabelsAt(typ, ident, t)
	if err != nil {
		return nil, fmt.Errorf("pmapi: labels: %w", err)
	}
	return sets, nil
}

// ContextLabels are the archive's context labels at the current time. An
// archive that records none (one written before labels, or whose first
// context labels come later) gets the set libpcp supplies then,
// {"hostname":"<the label's host>"} (hostlabels.Default), as
// pmGetContextLabels does; a host name that makes no label set is that
// parse's error, as in libpcp.
func (c *ArchiveContext) ContextLabels(context.Context) ([]pcp.LabelSet, error) {
	sets, err := c.labels(labelContext, uint32(pcp.PMIDNull))
	if err == nil || !errors.Is(err, pcp.ErrNoLabels) {
		return sets, err
	}
	ls, perr := hostlabels.Default(c.logs[0].Label.Hostname)
	if perr != nil {
		return nil, fmt.Errorf("pmapi: labels: %w", perr)
	}
	return []pcp.LabelSet{*ls}, nil
}

// DomainLabels are a domain's labels at the current time.
func (c *ArchiveContext) DomainLabels(_ context.Context, domain uint32) ([]pcp.LabelSet, error) {
	return c.labels(labelDomain, domain)
}

// InDomLabels are an instance domain's labels at the current time.
func (c *ArchiveContext) InDomLabels(_ context.Context, indom pcp.InDom) ([]pcp.LabelSet, error) {
	return c.labels(labelInDom, uint32(indom))
}

// ClusterLabels are a metric cluster's labels at the current time.
func (c *ArchiveContext) ClusterLabels(_ context.Context, pmid pcp.PMID) ([]pcp.LabelSet, error) {
	return c.labels(labelCluster, uint32(pmid))
}

// ItemLabels are a metric's labels at the current time.
func (c *ArchiveContext) ItemLabels(_ context.Context, pmid pcp.PMID) ([]pcp.LabelSet, error) {
	return c.labels(labelItem, uint32(pmid))
}

// InstancesLabels are the labels of an instance domain's instances at the
// current time.
func (c *ArchiveContext) InstancesLabels(_ context.Context, indom pcp.InDom) ([]pcp.LabelSet, error) {
	return c.labels(labelInstances, uint32(indom))
}

// AddProfile adds instances to the instance profile, as pmAddProfile.
func (c *ArchiveContext) AddProfile(indom pcp.InDom, insts []int32) error {
	return c.changeProfile(indom, insts, true)
}

// DelProfile removes instances from the instance profile.
func (c *ArchiveContext) DelProfile(indom pcp.InDom, insts []int32) error {
	return c.changeProfile(indom, insts, false)
}

func (c *ArchiveContext) changeProfile(indom pcp.InDom, insts []int32, add bool) error {
	if indom == pcp.InDomNull && len(insts) > 0 {
		return fmt.Errorf("pmapi: profile: instances with PM_INDOM_NULL: %w", pcp.ErrProfileSpec)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return fmt.Errorf("pmapi: profile: %w", pcp.ErrNoContext)
	}
	c.profile.Change(indom, insts, add)
	if c.interp != nil {
		// which instances a fetch asks for changed: the windowed walk's
		// note that every asked-for instance has a value before t no
		// longer holds
		c.interp.priorsOK = false
	}
	return nil
}
