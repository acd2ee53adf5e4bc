package mmv

import (
	"math"
	"sort"
	"strconv"
	"sync/atomic"

	"github.com/gopcp/gopcp/pcp"
)

// Counter is a value that only goes up: an unsigned 64-bit counter.
type Counter struct{ v *Value }

// Inc adds one.
func (c Counter) Inc() { atomic.AddUint64(&c.v.v.Load().atom, 1) }

// Add adds n.
func (c Counter) Add(n uint64) { atomic.AddUint64(&c.v.v.Load().atom, n) }

// Load returns the count.
func (c Counter) Load() uint64 { return atomic.LoadUint64(&c.v.v.Load().atom) }

// Gauge is a value that goes up and down: an instantaneous double.
type Gauge struct{ v *Value }

// Set stores f.
func (g Gauge) Set(f float64) { atomic.StoreUint64(&g.v.v.Load().atom, math.Float64bits(f)) }

// Add adds f (a compare-and-swap loop: lock-free, not one instruction).
func (g Gauge) Add(f float64) { addFloat64(&g.v.v.Load().atom, f) }

// Load returns the gauge's value.
func (g Gauge) Load() float64 { return math.Float64frombits(atomic.LoadUint64(&g.v.v.Load().atom)) }

// Text is a string value, instant or discrete.
type Text struct{ v *Value }

// Set stores s (cut to 254 bytes).
func (t Text) Set(s string) { t.v.SetString(s) }

// Load returns the text.
func (t Text) Load() string { return t.v.Text() }

// Timer accumulates elapsed time in microseconds (MMV's Elapsed type):
// pmdammv serves it as a 64-bit counter, adding the time of a section in
// progress.
type Timer struct{ v *Value }

// Start begins a timed section.
func (t Timer) Start() { t.v.StartTimer() }

// Stop ends it, adding its length.
func (t Timer) Stop() { t.v.StopTimer() }

// Add adds microseconds of completed time.
func (t Timer) Add(usec uint64) { atomic.AddUint64(&t.v.v.Load().atom, usec) }

// Vec is a metric over an instance domain, with a handle of type H per
// instance.
type Vec[H any] struct {
	m    *Metric
	wrap func(*Value) H
}

// At returns the handle for the instance id; ok is false when the domain
// has no such instance.
func (v *Vec[H]) At(id int32) (h H, ok bool) {
	if x := v.m.Instance(id); x != nil {
		return v.wrap(x), true
	}
	return h, false
}

// With returns the handle for the instance named.
func (v *Vec[H]) With(name string) (h H, ok bool) {
	if x := v.m.InstanceByName(name); x != nil {
		return v.wrap(x), true
	}
	return h, false
}

// Metric is the underlying metric.
func (v *Vec[H]) Metric() *Metric { return v.m }

func single(o MetricOptions, what string) error {
	if o.InDom != nil {
		return errorf(ErrInvalid, "metric "+strconv.Quote(what), "has an instance domain: use the Vec form")
	}
	return nil
}

// Counter adds a Uint64 counter with a single value.
func (r *Registry) Counter(name string, o MetricOptions) (Counter, error) {
	if err := single(o, name); err != nil {
		return Counter{}, err
	}
	m, err := r.AddMetric(name, Uint64, SemCounter, o)
	if err != nil {
		return Counter{}, err
	}
	return Counter{m.Value()}, nil
}

// CounterVec adds a Uint64 counter over the instance domain d.
func (r *Registry) CounterVec(name string, d *InDom, o MetricOptions) (*Vec[Counter], error) {
	o.InDom = d
	if d == nil {
		return nil, errorf(ErrNoInDom, "metric "+strconv.Quote(name), "no instance domain")
	}
	m, err := r.AddMetric(name, Uint64, SemCounter, o)
	if err != nil {
		return nil, err
	}
	return &Vec[Counter]{m, func(v *Value) Counter { return Counter{v} }}, nil
}

// Gauge adds an instantaneous Double with a single value.
func (r *Registry) Gauge(name string, o MetricOptions) (Gauge, error) {
	if err := single(o, name); err != nil {
		return Gauge{}, err
	}
	m, err := r.AddMetric(name, Double, SemInstant, o)
	if err != nil {
		return Gauge{}, err
	}
	return Gauge{m.Value()}, nil
}

// GaugeVec adds an instantaneous Double over the instance domain d.
func (r *Registry) GaugeVec(name string, d *InDom, o MetricOptions) (*Vec[Gauge], error) {
	o.InDom = d
	if d == nil {
		return nil, errorf(ErrNoInDom, "metric "+strconv.Quote(name), "no instance domain")
	}
	m, err := r.AddMetric(name, Double, SemInstant, o)
	if err != nil {
		return nil, err
	}
	return &Vec[Gauge]{m, func(v *Value) Gauge { return Gauge{v} }}, nil
}

// Text adds a discrete String with a single value.
func (r *Registry) Text(name string, o MetricOptions) (Text, error) {
	if err := single(o, name); err != nil {
		return Text{}, err
	}
	m, err := r.AddMetric(name, String, SemDiscrete, o)
	if err != nil {
		return Text{}, err
	}
	return Text{m.Value()}, nil
}

// Timer adds an Elapsed metric with a single value. Its units are
// microseconds whatever o.Units says, since pmdammv serves it so.
func (r *Registry) Timer(name string, o MetricOptions) (Timer, error) {
	if err := single(o, name); err != nil {
		return Timer{}, err
	}
	o.Units = pcp.Units{DimTime: 1, ScaleTime: pcp.TimeUSec}
	m, err := r.AddMetric(name, Elapsed, SemCounter, o)
	if err != nil {
		return Timer{}, err
	}
	return Timer{m.Value()}, nil
}

// Histogram counts observations in buckets, made of three PCP metrics:
// <name>.bucket, a counter over an instance domain with one instance per
// bucket (instance i counts observations in (bound[i-1], bound[i]], the
// last, named "+Inf", those above every bound), <name>.count and
// <name>.sum, counters of observations and of their total.
type Histogram struct {
	bounds  []float64
	buckets []Counter
	count   Counter
	sum     *Value
}

// HistogramOptions describe a histogram.
type HistogramOptions struct {
	Bounds    []float64 // increasing upper bounds of the buckets
	Units     pcp.Units // of the observations (the sum's units)
	ShortHelp string
	Labels    []Label // for the three metrics
	Serial    uint32  // of the buckets' instance domain; 0 derives one
}

// Histogram adds a histogram's metrics and instance domain; items are
// derived from the names.
func (r *Registry) Histogram(name string, o HistogramOptions) (*Histogram, error) {
	what := "histogram " + strconv.Quote(name)
	if len(o.Bounds) == 0 {
		return nil, errorf(ErrInvalid, what, "no bucket bounds")
	}
	if !sort.Float64sAreSorted(o.Bounds) {
		return nil, errorf(ErrInvalid, what, "bucket bounds do not increase")
	}
	insts := make([]Instance, 0, len(o.Bounds)+1)
	for i, b := range o.Bounds {
		if math.IsNaN(b) || math.IsInf(b, 0) || i > 0 && b == o.Bounds[i-1] {
			return nil, errorf(ErrInvalid, what, "bad bucket bound %v", b)
		}
		insts = append(insts, Instance{ID: int32(i), Name: strconv.FormatFloat(b, 'g', -1, 64)})
	}
	insts = append(insts, Instance{ID: int32(len(o.Bounds)), Name: "+Inf"})
	d, err := r.AddInDom(insts, InDomOptions{Serial: o.Serial, ShortHelp: "buckets of " + name})
	if err != nil {
		return nil, err
	}
	bv, err := r.CounterVec(name+".bucket", d, MetricOptions{ShortHelp: o.ShortHelp, Labels: o.Labels,
		Units: pcp.Units{DimCount: 1}})
	if err != nil {
		return nil, err
	}
	cnt, err := r.Counter(name+".count", MetricOptions{ShortHelp: o.ShortHelp, Labels: o.Labels,
		Units: pcp.Units{DimCount: 1}})
	if err != nil {
		return nil, err
	}
	sm, err := r.AddMetric(name+".sum", Double, SemCounter, MetricOptions{ShortHelp: o.ShortHelp,
		Labels: o.Labels, Units: o.Units})
	if err != nil {
		return nil, err
	}
	h := &Histogram{bounds: append([]float64(nil), o.Bounds...), count: cnt, sum: sm.Value()}
	for i := range insts {
		c, _ := bv.At(int32(i))
		h.buckets = append(h.buckets, c)
	}
	return h, nil
}

// Observe counts one observation: three atomic updates (bucket, count,
// sum), each lock-free; a reader between them may see them disagree by
// one observation.
func (h *Histogram) Observe(f float64) {
	i := sort.SearchFloat64s(h.bounds, f)
	h.buckets[i].Inc()
	h.count.Inc()
	addFloat64(&h.sum.v.Load().atom, f)
}

// CounterOf views a Uint64 value as a Counter (for a metric made with
// AddMetric). For a value of any other type it returns a counter that
// belongs to no file.
func CounterOf(v *Value) Counter {
	if v == nil || v.typ != Uint64 {
		return Counter{v: newCell(Uint64)} // a detached counter, not in any file
	}
	return Counter{v}
}
