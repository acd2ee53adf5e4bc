package mmv

import (
	"hash/fnv"
	"strconv"

	"github.com/gopcp/gopcp/pcp"
)

// MetricOptions describe a metric beyond its name, type and semantics.
type MetricOptions struct {
	// Item is the PMID item, 1 to MaxItem; 0 derives one from the name,
	// stepping past items already used in this registry.
	Item uint32
	// ZeroItem asks for item 0 itself, which libpcp_mmv and pmdammv take
	// like any other (PCP's pmproxy gives it to pmproxy.pid).
	ZeroItem  bool
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
	case item == 0 && !o.ZeroItem:
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
