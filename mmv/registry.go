package mmv

import (
	"hash/fnv"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/gopcp/gopcp/pcp"
)

// Options configure a registry.
type Options struct {
	// Dir is the directory the file is written in. pmdammv reads
	// $PCP_TMP_DIR/mmv; DefaultDir resolves that directory.
	Dir string
	// Cluster is the PMID cluster pmdammv is asked to use, 1 to
	// MaxCluster; 0 derives one from the file's name, stepping past
	// clusters other files in Dir already claim.
	Cluster uint32
	// Flags are NoPrefix, Process and Sentinel.
	Flags Flags
	// Labels apply to every metric of the file.
	Labels []Label
}

// Registry is one MMV file: its instance domains and metrics, and once
// started, the mapped file their values live in. Adding metrics or
// instances is serialized by the registry; updating values is not and
// needs no lock.
type Registry struct {
	mu      sync.Mutex
	name    string
	dir     string
	cluster uint32
	given   bool // the cluster was chosen by the caller
	flags   Flags
	labels  []label

	indoms  []*InDom
	metrics []*Metric
	names   map[string]bool
	items   map[uint32]bool
	serials map[uint32]bool

	started bool
	closed  bool
	gen     uint64
	cur     []byte   // the mapping of the file readers see
	old     [][]byte // mappings replaced by rewrites, unmapped by Close

	stragglers []*straggler // additive values' previous homes, see settle
}

// label is a checked label, ready to write.
type label struct {
	payload  string
	optional bool
}

func checkLabels(what string, ls []Label) ([]label, error) {
	out := make([]label, 0, len(ls))
	for _, l := range ls {
		p, err := l.payload(what)
		if err != nil {
			return nil, err
		}
		out = append(out, label{p, l.Optional})
	}
	return out, nil
}

// New describes a registry written to the file name in o.Dir. Nothing is
// written until Start. The name must follow the metric name grammar,
// since pmdammv uses it as the metrics' prefix (mmv.<name>.<metric>).
func New(name string, o Options) (*Registry, error) {
	what := "registry " + strconv.Quote(name)
	if err := checkName(what, name); err != nil {
		return nil, err
	}
	if o.Dir == "" {
		return nil, errorf(ErrInvalid, what, "no directory given (DefaultDir gives PCP's)")
	}
	if o.Cluster > MaxCluster {
		return nil, errorf(ErrRange, what, "cluster %d is above %d", o.Cluster, MaxCluster)
	}
	if o.Flags&^(NoPrefix|Process|Sentinel) != 0 {
		return nil, errorf(ErrInvalid, what, "unknown flags %#x", uint32(o.Flags&^(NoPrefix|Process|Sentinel)))
	}
	ls, err := checkLabels(what, o.Labels)
	if err != nil {
		return nil, err
	}
	r := &Registry{
		name: name, dir: o.Dir, cluster: o.Cluster, given: o.Cluster != 0,
		flags: o.Flags, labels: ls,
		names: map[string]bool{}, items: map[uint32]bool{}, serials: map[uint32]bool{},
	}
	return r, nil
}

// Path is the file the registry writes.
func (r *Registry) Path() string { return filepath.Join(r.dir, r.name) }

// Cluster is the cluster written in the file's header: the one given, or
// once started, the one derived.
func (r *Registry) Cluster() uint32 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.cluster
}

// Version is the format version the file has (or would have now).
func (r *Registry) Version() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return int(r.chooseVersion())
}

// InDomOptions describe an instance domain.
type InDomOptions struct {
	// Serial is the instance domain's number in the file, 1 to
	// MaxSerial; 0 takes the lowest one free.
	Serial    uint32
	ShortHelp string
	LongHelp  string // pmdammv never serves it, but it is in the file
	Labels    []Label
}

// Instance is one instance of an instance domain.
type Instance struct {
	ID     int32
	Name   string
	Labels []Label
}

type instance struct {
	ID     int32
	Name   string
	labels []label
}

// InDom is an instance domain of a registry.
type InDom struct {
	r      *Registry
	serial uint32
	short  string
	help   string
	labels []label
	insts  []instance
	ids    map[int32]bool
	inames map[string]bool
}

// Serial is the instance domain's serial number in the file.
func (d *InDom) Serial() uint32 { return d.serial }

// AddInDom adds an instance domain with its first instances. After Start
// the file is rewritten with a new generation.
func (r *Registry) AddInDom(insts []Instance, o InDomOptions) (*InDom, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	what := "instance domain " + strconv.FormatUint(uint64(o.Serial), 10)
	if r.closed {
		return nil, errorf(ErrClosed, what, "registry is closed")
	}
	if o.Serial > MaxSerial {
		return nil, errorf(ErrRange, what, "serial is above %d", MaxSerial)
	}
	serial := o.Serial
	if serial == 0 {
		for serial = 1; r.serials[serial]; serial++ {
		}
		if serial > MaxSerial {
			return nil, errorf(ErrRange, what, "no serial left")
		}
		what = "instance domain " + strconv.FormatUint(uint64(serial), 10)
	} else if r.serials[serial] {
		return nil, errorf(ErrExists, what, "serial already used")
	}
	if err := checkText(what, o.ShortHelp); err != nil {
		return nil, err
	}
	if err := checkText(what, o.LongHelp); err != nil {
		return nil, err
	}
	ls, err := checkLabels(what, o.Labels)
	if err != nil {
		return nil, err
	}
	d := &InDom{r: r, serial: serial, short: o.ShortHelp, help: o.LongHelp, labels: ls,
		ids: map[int32]bool{}, inames: map[string]bool{}}
	for _, i := range insts {
		if err := d.check(i); err != nil {
			return nil, err
		}
		il, _ := checkLabels(what, i.Labels) // checked by d.check
		d.insts = append(d.insts, instance{i.ID, i.Name, il})
		d.ids[i.ID], d.inames[i.Name] = true, true
	}
	if err := r.checkLabelCount(len(ls) + countInstLabels(d.insts)); err != nil {
		return nil, err
	}
	r.serials[serial] = true
	r.indoms = append(r.indoms, d)
	if err := r.rewrite(); err != nil {
		r.indoms = r.indoms[:len(r.indoms)-1]
		delete(r.serials, serial)
		return nil, err
	}
	return d, nil
}

func countInstLabels(is []instance) int {
	n := 0
	for _, i := range is {
		n += len(i.labels)
	}
	return n
}

// check refuses an instance with a bad or duplicate name or id.
func (d *InDom) check(i Instance) error {
	what := "instance " + strconv.Quote(i.Name) + " of instance domain " + strconv.FormatUint(uint64(d.serial), 10)
	if err := checkInstanceName(what, i.Name); err != nil {
		return err
	}
	if d.ids[i.ID] {
		return errorf(ErrExists, what, "instance id %d already used", i.ID)
	}
	if d.inames[i.Name] {
		return errorf(ErrExists, what, "instance name already used")
	}
	_, err := checkLabels(what, i.Labels)
	return err
}

// AddInstance adds an instance to the domain: every metric over it gains a
// value. After Start the file is rewritten with a new generation.
func (d *InDom) AddInstance(i Instance) error {
	r := d.r
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return errorf(ErrClosed, "instance "+strconv.Quote(i.Name), "registry is closed")
	}
	if err := d.check(i); err != nil {
		return err
	}
	il, _ := checkLabels("", i.Labels)
	if err := r.checkLabelCount(len(il)); err != nil {
		return err
	}
	d.insts = append(d.insts, instance{i.ID, i.Name, il})
	d.ids[i.ID], d.inames[i.Name] = true, true
	for _, m := range r.metrics {
		if m.indom == d {
			m.cells = append(m.cells, newCell(m.typ))
		}
	}
	if err := r.rewrite(); err != nil {
		d.insts = d.insts[:len(d.insts)-1]
		delete(d.ids, i.ID)
		delete(d.inames, i.Name)
		for _, m := range r.metrics {
			if m.indom == d {
				m.cells = m.cells[:len(m.cells)-1]
			}
		}
		return err
	}
	return nil
}

func (r *Registry) checkLabelCount(more int) error {
	if n := len(r.allLabels()) + more; n > maxLabels {
		return errorf(ErrRange, "registry "+strconv.Quote(r.name), "%d labels, pmdammv reads at most %d", n, maxLabels)
	}
	return nil
}

// MetricOptions describe a metric beyond its name, type and semantics.
type MetricOptions struct {
	// Item is the PMID item, 1 to MaxItem; 0 derives one from the name,
	// stepping past items already used in this registry.
	Item      uint32
	Units     pcp.Units
	InDom     *InDom // nil: a single value
	ShortHelp string
	LongHelp  string
	Labels    []Label
}

// Metric is a metric of a registry.
type Metric struct {
	r      *Registry
	name   string
	item   uint32
	typ    Type
	sem    Semantics
	units  pcp.Units
	indom  *InDom
	short  string
	help   string
	labels []label
	cells  []*cell // one per value: the instances in their domain's order
}

func (m *Metric) nvalues() int {
	if m.indom == nil {
		return 1
	}
	return len(m.indom.insts)
}

// Item is the metric's PMID item.
func (m *Metric) Item() uint32 { return m.item }

// AddMetric adds a metric of any type and semantics. After Start the file
// is rewritten with a new generation, and readers such as pmdammv notice.
func (r *Registry) AddMetric(name string, t Type, s Semantics, o MetricOptions) (*Metric, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	what := "metric " + strconv.Quote(name)
	if r.closed {
		return nil, errorf(ErrClosed, what, "registry is closed")
	}
	if err := checkName(what, name); err != nil {
		return nil, err
	}
	if r.names[name] {
		return nil, errorf(ErrExists, what, "name already used")
	}
	if !t.valid() {
		return nil, errorf(ErrInvalid, what, "unknown type %d", t)
	}
	if !s.valid() {
		return nil, errorf(ErrInvalid, what, "unknown semantics %d", s)
	}
	if o.InDom != nil && o.InDom.r != r {
		return nil, errorf(ErrNoInDom, what, "instance domain belongs to another registry")
	}
	if err := checkText(what, o.ShortHelp); err != nil {
		return nil, err
	}
	if err := checkText(what, o.LongHelp); err != nil {
		return nil, err
	}
	ls, err := checkLabels(what, o.Labels)
	if err != nil {
		return nil, err
	}
	if len(r.metrics) >= maxMetrics {
		return nil, errorf(ErrRange, what, "a file holds at most %d metrics", maxMetrics)
	}
	if err := r.checkLabelCount(len(ls)); err != nil {
		return nil, err
	}
	item := o.Item
	switch {
	case item > MaxItem:
		return nil, errorf(ErrRange, what, "item %d is above %d", item, MaxItem)
	case item == 0:
		item = deriveItem(name, r.items)
	case r.items[item]:
		return nil, errorf(ErrExists, what, "item %d already used", item)
	}
	m := &Metric{r: r, name: name, item: item, typ: t, sem: s, units: o.Units, indom: o.InDom,
		short: o.ShortHelp, help: o.LongHelp, labels: ls}
	for range m.nvalues() {
		m.cells = append(m.cells, newCell(t))
	}
	r.metrics = append(r.metrics, m)
	r.names[name], r.items[item] = true, true
	if err := r.rewrite(); err != nil {
		r.metrics = r.metrics[:len(r.metrics)-1]
		delete(r.names, name)
		delete(r.items, item)
		return nil, err
	}
	return m, nil
}

// deriveItem hashes the name as Speed does (FNV-1a, low 10 bits) and, unlike
// Speed, steps to the next free item on a collision: pmdammv would drop
// the second metric of a pair with one item.
func deriveItem(name string, used map[uint32]bool) uint32 {
	h := fnv.New32a()
	h.Write([]byte(name))
	item := h.Sum32() & MaxItem
	for used[item] {
		item = (item + 1) & MaxItem
	}
	return item
}

// deriveCluster hashes the registry's name as Speed does (FNV-1a, low 12
// bits, 0 taken as 1) and steps past clusters in taken.
func deriveCluster(name string, taken map[uint32]bool) uint32 {
	h := fnv.New32a()
	h.Write([]byte(name))
	c := h.Sum32() & MaxCluster
	for i := 0; i <= MaxCluster && (c == 0 || taken[c]); i++ {
		c = (c + 1) & MaxCluster
	}
	return c
}

// Value returns the handle of a metric's single value, or nil when the
// metric has an instance domain (see Instance).
func (m *Metric) Value() *Value {
	if m.indom != nil {
		return nil
	}
	return m.cells[0] // a single-valued metric's cell never changes
}

// Instance returns the handle of the metric's value for the instance id,
// or nil when the metric has no instance domain or the domain has no such instance.
func (m *Metric) Instance(id int32) *Value {
	m.r.mu.Lock()
	defer m.r.mu.Unlock()
	if m.indom == nil {
		return nil
	}
	for k, i := range m.indom.insts {
		if i.ID == id {
			return m.cells[k]
		}
	}
	return nil
}

// InstanceByName returns the handle of the metric's value for the
// instance named, or nil.
func (m *Metric) InstanceByName(name string) *Value {
	m.r.mu.Lock()
	defer m.r.mu.Unlock()
	if m.indom == nil {
		return nil
	}
	for k, i := range m.indom.insts {
		if i.Name == name {
			return m.cells[k]
		}
	}
	return nil
}

// Start writes the file. From then on every value update is visible to
// readers, and every addition rewrites the file with a new generation.
func (r *Registry) Start() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return errorf(ErrClosed, "registry "+strconv.Quote(r.name), "registry is closed")
	}
	if r.started {
		return nil
	}
	taken, err := clustersInDir(r.dir, r.name)
	if err != nil {
		return err
	}
	if r.given && taken[r.cluster] {
		return errorf(ErrExists, "registry "+strconv.Quote(r.name), "cluster %d is already claimed by another file in %s", r.cluster, r.dir)
	}
	if !r.given {
		r.cluster = deriveCluster(r.name, taken)
	}
	r.started = true
	if err := r.rewrite(); err != nil {
		r.started = false
		return err
	}
	return nil
}

// Close stops the registry. With the Process flag the file is removed, as
// libpcp_mmv does; otherwise it stays, its values as they were. Updates
// through handles after Close go nowhere; an update racing with Close may
// touch unmapped memory, so stop updating first.
func (r *Registry) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil
	}
	r.closed = true
	r.settle()
	r.stragglers = nil
	for _, m := range r.metrics {
		for _, c := range m.cells {
			c.detach()
		}
	}
	var err error
	if r.flags&Process != 0 && r.started {
		if e := os.Remove(r.Path()); e != nil && !os.IsNotExist(e) {
			err = e
		}
	}
	for _, b := range append(r.old, r.cur) {
		if b != nil {
			if e := unmap(b); e != nil && err == nil {
				err = e
			}
		}
	}
	r.cur, r.old = nil, nil
	return err
}
