package goruntime

import (
	"context"
	"math"
	"runtime/metrics"
	"strconv"
	"strings"
	"time"

	"github.com/gopcp/gopcp/mmv"
	"github.com/gopcp/gopcp/pcp"
)

// Runtime exports the Go runtime's own metrics (runtime/metrics) as MMV
// metrics: every scalar as a Uint64 or Double value, every histogram as a
// counter over an instance domain of its buckets (named by upper bound).
// Names are the runtime's with '/' as '.' and the unit last, under a
// prefix: /gc/heap/allocs:bytes becomes <prefix>.gc.heap.allocs.bytes.
//
//	rt, err := goruntime.Export(reg, "go")
//	go rt.Run(ctx, time.Second)
type Runtime struct {
	samples []metrics.Sample
	values  []*mmv.Value   // scalars: the value; nil for histograms
	buckets [][]*mmv.Value // histograms: one value per bucket
}

// Export adds the runtime's metrics to r under prefix (a name of
// the metric grammar, e.g. "go"), with items derived from the names, and
// reads them once. Call it before or after Start.
func Export(r *mmv.Registry, prefix string) (*Runtime, error) {
	if err := mmv.CheckName("runtime metrics prefix", prefix); err != nil {
		return nil, err
	}
	rt := &Runtime{}
	descs := metrics.All()
	probe := make([]metrics.Sample, len(descs))
	for i, d := range descs {
		probe[i].Name = d.Name
	}
	metrics.Read(probe)
	for i, d := range descs {
		name, units := runtimeName(prefix, d.Name)
		sem := mmv.SemInstant
		if d.Cumulative {
			sem = mmv.SemCounter
		}
		o := mmv.MetricOptions{Units: units, ShortHelp: firstSentence(d.Description), LongHelp: cut(d.Description)}
		switch d.Kind {
		case metrics.KindUint64, metrics.KindFloat64:
			t := mmv.Uint64
			if d.Kind == metrics.KindFloat64 {
				t = mmv.Double
			}
			m, err := r.AddMetric(name, t, sem, o)
			if err != nil {
				return nil, err
			}
			rt.samples = append(rt.samples, metrics.Sample{Name: d.Name})
			rt.values = append(rt.values, m.Value())
			rt.buckets = append(rt.buckets, nil)
		case metrics.KindFloat64Histogram:
			h := probe[i].Value.Float64Histogram()
			insts, ok := bucketInstances(h)
			if !ok {
				continue
			}
			dom, err := r.AddInDom(insts, mmv.InDomOptions{ShortHelp: "buckets of " + d.Name})
			if err != nil {
				return nil, err
			}
			o.InDom = dom
			o.Units = pcp.Units{DimCount: 1}
			m, err := r.AddMetric(name, mmv.Uint64, mmv.SemCounter, o)
			if err != nil {
				return nil, err
			}
			vals := make([]*mmv.Value, len(insts))
			for k := range insts {
				vals[k] = m.Instance(int32(k))
			}
			rt.samples = append(rt.samples, metrics.Sample{Name: d.Name})
			rt.values = append(rt.values, nil)
			rt.buckets = append(rt.buckets, vals)
		}
	}
	rt.Update()
	return rt, nil
}

// maxBuckets bounds the instances of one exported histogram.
const maxBuckets = 512

// bucketInstances names a histogram's buckets by their upper bounds, or
// reports false when they cannot be instances (too many, or not distinct
// once printed).
func bucketInstances(h *metrics.Float64Histogram) ([]mmv.Instance, bool) {
	if h == nil || len(h.Counts) == 0 || len(h.Counts) > maxBuckets || len(h.Buckets) != len(h.Counts)+1 {
		return nil, false
	}
	seen := map[string]bool{}
	insts := make([]mmv.Instance, len(h.Counts))
	for k := range h.Counts {
		name := "+Inf"
		if up := h.Buckets[k+1]; !math.IsInf(up, 1) {
			name = strconv.FormatFloat(up, 'g', -1, 64)
		}
		if seen[name] {
			return nil, false
		}
		seen[name] = true
		insts[k] = mmv.Instance{ID: int32(k), Name: name}
	}
	return insts, true
}

// Update reads the runtime's metrics into the file; it allocates nothing
// once the histograms' buffers exist.
func (rt *Runtime) Update() {
	metrics.Read(rt.samples)
	for i, s := range rt.samples {
		switch s.Value.Kind() {
		case metrics.KindUint64:
			rt.values[i].SetUint(s.Value.Uint64())
		case metrics.KindFloat64:
			rt.values[i].SetFloat(s.Value.Float64())
		case metrics.KindFloat64Histogram:
			h := s.Value.Float64Histogram()
			if len(h.Counts) != len(rt.buckets[i]) {
				continue // the runtime changed its buckets: keep the last counts
			}
			for k, c := range h.Counts {
				rt.buckets[i][k].SetUint(c)
			}
		}
	}
}

// Run calls Update every interval until ctx is done.
func (rt *Runtime) Run(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			rt.Update()
		}
	}
}

// runtimeName maps a runtime metric's key to an MMV name and PCP units.
func runtimeName(prefix, key string) (string, pcp.Units) {
	path, unit, _ := strings.Cut(key, ":")
	var b strings.Builder
	b.WriteString(prefix)
	for _, comp := range strings.Split(strings.Trim(path, "/")+"/"+unit, "/") {
		if comp == "" {
			continue
		}
		b.WriteByte('.')
		if !isAlpha(comp[0]) {
			b.WriteByte('x')
		}
		for i := 0; i < len(comp); i++ {
			if c := comp[i]; isAlpha(c) || isDigit(c) || c == '_' {
				b.WriteByte(c)
			} else {
				b.WriteByte('_')
			}
		}
	}
	var u pcp.Units
	switch unit {
	case "bytes":
		u = pcp.Units{DimSpace: 1, ScaleSpace: pcp.SpaceByte}
	case "seconds", "cpu-seconds":
		u = pcp.Units{DimTime: 1, ScaleTime: pcp.TimeSec}
	case "percent":
	default:
		u = pcp.Units{DimCount: 1}
	}
	return b.String(), u
}

func firstSentence(s string) string {
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	return cut(strings.Join(strings.Fields(s), " "))
}

// cut shortens help text to fit a string slot.
func cut(s string) string {
	if len(s) >= mmv.StringSize {
		s = s[:mmv.StringSize-4] + "..."
	}
	return s
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
