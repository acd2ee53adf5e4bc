package series

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gopcp/gopcp/pcp"
)

// The evaluation of functions and arithmetic as libpcp_web 6.0.3 does
// it: every vector's series are read with their samples (a sample being
// the instances of one stream entry), functions and operators rewrite
// those sets, and the result is reported under one series identifier,
// the SHA-1 of the expression's canonical text, whose descriptor and
// expression are written to Redis (pcp:desc:series:<id>,
// pcp:expr:series:<id>) as PCP writes them.

// ival is one instance's value in a sample: its stream entry ID and
// time, the instance's series (the metric's own for one without
// instances, empty for an aggregate over instances) and its text.
type ival struct {
	stamp string
	ts    pcp.Timestamp
	inst  string
	data  string
}

// fdesc is a series' descriptor as libpcp_web's evaluation carries it.
type fdesc struct{ indom, pmid, sem, source, typ, units string }

// sset is one series' samples; num is libpcp_web's sample count, which
// rate lowers without dropping the last sample.
type sset struct {
	sid, metric string
	desc        fdesc
	samples     [][]ival
	num         int
}

// evalError is an error of evaluation in libpcp_web's words.
func evalError(format string, a ...any) error {
	return &QueryError{Msg: fmt.Sprintf(format, a...)}
}

// MaxQueryValues bounds the values a query with functions holds at once
// (every vector's, before the functions run).
const MaxQueryValues = 1 << 22

func (s *Store) maxValues() int {
	if s.valuesLimit > 0 {
		return s.valuesLimit
	}
	return MaxQueryValues
}

// samplesOf reads a series' entries in the vector's window (w) and keeps
// them by the query's window (g): the interval's thinning and the count,
// each entry kept a sample. libpcp_web keeps the entries not chosen as
// empty samples, which its functions then count (an average divided by
// them), rate around (raw values left among the rates) or crash on; here
// they are dropped (docs/series.md).
func (s *Store) samplesOf(ctx context.Context, sid string, w, g *Window) ([][]ival, error) {
	countOnly := w.Samples > 0 && w.Start.IsZero() && w.Finish.IsZero() && w.Interval == 0 && w.Range == ""
	msgs, err := s.streamWindow(ctx, sid, w, countOnly)
	if err != nil {
		return nil, err
	}
	times := make([]pcp.Timestamp, len(msgs))
	for i, m := range msgs {
		t := parseStreamID(m.ID)
		times[i] = t
	}
	nanos := func(t pcp.Timestamp) int64 { return t.Sec*1e9 + int64(t.Nsec) }
	var out [][]ival
	var goal int64
	counted := 0
	for n, m := range msgs {
		if g.Interval > 0 {
			if n == 0 {
				goal = nanos(times[0])
				if startSet(g.Start) {
					goal = g.Start.UnixNano()
				}
			}
			if n+1 < len(msgs) {
				next := nanos(times[n+1])
				gd := float64(next-goal) / 1e9
				if gd <= 0 {
					continue
				}
				if gd > 2*float64(g.Interval/time.Second) {
					goal = next
				}
				goal += int64(g.Interval)
			}
		}
		if g.Samples > 0 {
			if counted >= g.Samples {
				break
			}
			counted++
		}
		var sample []ival
		for _, f := range m.fields {
			v := ival{stamp: m.ID, ts: times[n], data: f.value}
			switch {
			case f.name == "":
				v.inst = sid
			case len(f.name) == len(ID{}):
				v.inst = hexOf(f.name)
			default:
				continue // "-1": a fetch's error
			}
			sample = append(sample, v)
		}
		out = append(out, sample)
	}
	return out, nil
}

// leafSets reads a vector's series: descriptors, metric names and, with
// a window, samples.
func (s *Store) leafSets(ctx context.Context, e *Expr, global *Window, read *int) ([]*sset, error) {
	ids, err := s.matchExpr(ctx, e)
	if err != nil {
		return nil, err
	}
	out := make([]*sset, 0, len(ids))
	for _, sid := range ids {
		ss := &sset{sid: sid}
		r, err := s.c.Do(ctx, "HMGET", "pcp:desc:series:"+sid, "indom", "semantics", "source", "type", "units")
		if err == nil && len(r.Elems) != 5 {
			err = fmt.Errorf("unexpected reply")
		}
		if err != nil {
			return nil, fmt.Errorf("%w: HMGET pcp:desc:series:%s: %v", ErrRedis, sid, err)
		}
		d := r.Strings()
		str := func(i int) string { return d[i] }
		ss.desc = fdesc{indom: str(0), pmid: "511.0.0", sem: str(1), source: str(2), typ: str(3), units: str(4)}
		names, err := s.mapped(ctx, "metric.name", mustMembers(s.members(ctx, "pcp:metric.name:series:"+sid)))
		if err == nil && len(names) > 0 {
			ss.metric = names[len(names)-1]
		}
		if e.Window != nil {
			if ss.samples, err = s.samplesOf(ctx, sid, e.Window, global); err != nil {
				return nil, err
			}
			ss.num = len(ss.samples)
			for _, smp := range ss.samples {
				*read += len(smp)
			}
			if limit := s.maxValues(); *read > limit {
				return nil, &QueryError{Msg: fmt.Sprintf("query reads more than %d values: narrow its window or its series", limit)}
			}
		}
		out = append(out, ss)
	}
	return out, nil
}

func mustMembers(m []string, err error) []string {
	if err != nil {
		return nil
	}
	return m
}

// matchExpr is the series a vector names, in libpcp_web's order.
func (s *Store) matchExpr(ctx context.Context, e *Expr) ([]string, error) {
	if e.Filter == nil || !hasOr(e.Filter) {
		q := &Query{Name: e.Name}
		if e.Filter != nil {
			q.Filters = flatten(e.Filter)
		}
		return s.match(ctx, q)
	}
	set, err := s.filterSet(ctx, e.Filter)
	if err != nil {
		return nil, err
	}
	if e.Name != "" {
		named, err := s.match(ctx, &Query{Name: e.Name})
		if err != nil {
			return nil, err
		}
		set = intersectSets(idsOf(named), set)
	}
	return hexes(set), nil
}

func (s *Store) filterSet(ctx context.Context, f *FilterExpr) ([]ID, error) {
	var join func(a, b []ID) []ID
	switch {
	case f.Op == "||":
		join = unionSets
	case f.Op == "&&" && (hasOr(f.Left) || hasOr(f.Right)):
		join = intersectSets
	}
	if join != nil {
		l, err := s.filterSet(ctx, f.Left)
		if err != nil {
			return nil, err
		}
		r, err := s.filterSet(ctx, f.Right)
		if err != nil {
			return nil, err
		}
		return join(l, r), nil
	}
	m, err := s.match(ctx, &Query{Filters: flatten(f)})
	if err != nil {
		return nil, err
	}
	return idsOf(m), nil
}

func hasOr(f *FilterExpr) bool {
	if f == nil {
		return false
	}
	return f.Op == "||" || hasOr(f.Left) || hasOr(f.Right)
}

func flatten(f *FilterExpr) []Filter {
	if f == nil {
		return nil
	}
	if f.Op == "&&" {
		return append(flatten(f.Left), flatten(f.Right)...)
	}
	return []Filter{f.Leaf}
}

func idsOf(hexIDs []string) []ID {
	out := make([]ID, 0, len(hexIDs))
	for _, h := range hexIDs {
		if id, ok := ParseID(h); ok {
			out = append(out, id)
		}
	}
	return out
}

func hexes(ids []ID) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = id.String()
	}
	return out
}

// canonical is libpcp_web's canonical text of an expression, hashed into
// its series identifier; a glob's text is the first series' metric name.
func canonical(e *Expr, sets map[*Expr][]*sset) string { return canonicalAt(e, sets, 0) }

// Canonical is an expression's canonical text, which ExprID hashes into
// its series identifier; a glob stands for itself here (evaluated, it
// becomes its first series' metric name).
func Canonical(e *Expr) string { return canonical(e, nil) }

// canonicalAt is the canonical text with a glob named by its idx'th
// series, as libpcp_web words a message about that series.
func canonicalAt(e *Expr, sets map[*Expr][]*sset, idx int) string {
	c := func(x *Expr) string { return canonicalAt(x, sets, idx) }
	switch e.Op {
	case "number":
		return e.Value
	case "vector":
		name := e.Name
		if strings.Contains(name, "*") {
			name = ""
			if ss := sets[e]; idx < len(ss) {
				name = ss[idx].metric
			} else if len(ss) > 0 {
				name = ss[0].metric
			}
		}
		if e.Filter == nil {
			return name
		}
		f := canonicalFilter(e.Filter)
		if e.Name == "" {
			return f
		}
		return name + "{" + f + "}"
	case "+", "-", "*", "/":
		return c(e.Left) + e.Op + c(e.Right)
	case "rescale":
		return "rescale(" + c(e.Left) + `,"` + e.Value + `")`
	case "topk_inst", "topk_sample", "nth_percentile_inst", "nth_percentile_sample":
		return e.Op + "(" + c(e.Left) + ", " + e.Value + ")"
	case "log":
		if e.Value != "" {
			return "log(" + c(e.Left) + "," + e.Value + ")"
		}
	}
	return e.Op + "(" + c(e.Left) + ")"
}

func canonicalFilter(f *FilterExpr) string {
	switch f.Op {
	case "&&", "||":
		return canonicalFilter(f.Left) + f.Op + canonicalFilter(f.Right)
	case "==", "!=", "~~":
		if f.Op == "==" && f.Leaf.Name == "metric.name" {
			return f.Leaf.Value // libpcp_web writes a metric name alone
		}
		return f.Leaf.Name + f.Op + `"` + f.Leaf.Value + `"`
	}
	return f.Leaf.Name + f.Op + f.Leaf.Value
}

// ExprID is the series identifier of an expression's canonical text.
func ExprID(canon string) string {
	h := sha1.Sum([]byte(`{"series":"expr","expr":"` + canon + `"}`))
	return hex.EncodeToString(h[:])
}

// evalQuery evaluates a query holding functions or arithmetic.
func (s *Store) evalQuery(ctx context.Context, p *Parsed) (*QueryResult, error) {
	sets := map[*Expr][]*sset{}
	values := 0
	for _, v := range vectors(p.Root) {
		ss, err := s.leafSets(ctx, v, p.Window, &values)
		if err != nil {
			return nil, err
		}
		sets[v] = ss
	}
	canon := canonical(p.Root, sets)
	res, err := calculate(p.Root, sets)
	if err != nil {
		var qe *QueryError
		if p.Window == nil && errors.As(err, &qe) {
			// Without a window libpcp_web reports the error, checks
			// the units of what it has as it would a result, and then
			// answers the series it was evaluating, under their own
			// names.
			if uerr := reconcileUnits(res); uerr != nil {
				qe.More = append(qe.More, uerr.Error())
			}
			var ids []string
			for _, ss := range res {
				if !slices.Contains(ids, ss.sid) {
					ids = append(ids, ss.sid)
				}
			}
			return &QueryResult{Series: ids, Warning: qe}, nil
		}
		return nil, err
	}
	if len(res) == 0 {
		return &QueryResult{Windowed: p.Window != nil}, nil
	}
	if err := reconcileUnits(res); err != nil {
		return nil, err
	}
	id := ExprID(canon)
	out := &QueryResult{Series: []string{id}, Windowed: p.Window != nil}
	for _, ss := range res {
		for j := 0; j < ss.num && j < len(ss.samples); j++ {
			for _, v := range ss.samples[j] {
				out.Values = append(out.Values, Value{
					Series: id, Instance: v.inst, Blank: v.inst == "",
					Timestamp: float64(v.ts.Sec)*1e3 + float64(v.ts.Nsec)/1e6,
					Stamp:     v.stamp, Value: v.data,
				})
			}
		}
	}
	d := res[0].desc
	key := "pcp:desc:series:" + id
	if _, err := s.c.Do(ctx, "HSET", key, "indom", d.indom, "pmid", d.pmid, "semantics", d.sem,
		"source", string(make([]byte, 20)), "type", d.typ, "units", d.units); err != nil {
		return nil, fmt.Errorf("%w: HSET %s: %v", ErrRedis, key, err)
	}
	if _, err := s.c.Do(ctx, "HSET", "pcp:expr:series:"+id, "query", canon); err != nil {
		return nil, fmt.Errorf("%w: HSET pcp:expr:series:%s: %v", ErrRedis, id, err)
	}
	return out, nil
}

// reconcileUnits is libpcp_web's check over the result's series: their
// units' dimensions must agree; scales that differ are brought to the
// larger, the values becoming doubles.
func reconcileUnits(res []*sset) error {
	parse := func(ss *sset) (pcp.Units, error) {
		if strings.HasPrefix(ss.desc.units, "none") || ss.desc.units == "" {
			return pcp.Units{}, nil
		}
		u, _, err := pcp.ParseUnits(ss.desc.units)
		if err != nil {
			return u, evalError("Invalid units string: %s\n", ss.desc.units)
		}
		return u, nil
	}
	for i := range res {
		ui, err := parse(res[i])
		if err != nil {
			return err
		}
		for j := range res {
			if i == j {
				continue
			}
			uj, err := parse(res[j])
			if err != nil {
				return err
			}
			if ui.DimCount != uj.DimCount || ui.DimTime != uj.DimTime || ui.DimSpace != uj.DimSpace {
				return evalError("Incompatible units between operand metrics or expressions\n'%s' (%s)\nvs'%s' (%s)\n",
					res[i].metric, res[i].desc.units, res[j].metric, res[j].desc.units)
			}
			large := ui
			large.ScaleCount = max(ui.ScaleCount, uj.ScaleCount)
			large.ScaleSpace = max(ui.ScaleSpace, uj.ScaleSpace)
			large.ScaleTime = max(ui.ScaleTime, uj.ScaleTime)
			for _, x := range []struct {
				ss *sset
				u  pcp.Units
			}{{res[i], ui}, {res[j], uj}} {
				if x.u.ScaleCount == large.ScaleCount && x.u.ScaleSpace == large.ScaleSpace && x.u.ScaleTime == large.ScaleTime {
					continue
				}
				for _, smp := range x.ss.samples {
					for k := range smp {
						a, _ := pcp.ConvScale(pcp.TypeDouble, pcp.Atom{D: cfloat(smp[k].data)}, x.u, large)
						smp[k].data = formatAtom(pcp.TypeDouble, a)
					}
				}
				x.ss.desc.typ = "DOUBLE"
				x.ss.desc.units = large.String()
			}
		}
	}
	return nil
}

// cfloat is C's strtod of a value's text: its longest numeric prefix, 0
// when there is none.
func cfloat(s string) float64 {
	s = strings.TrimLeft(s, " \t\n\r\v\f")
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return f
	}
	end := 0
	for end < len(s) && strings.IndexByte("+-0123456789.eE", s[end]) >= 0 {
		end++
	}
	for ; end > 0; end-- {
		if f, err := strconv.ParseFloat(s[:end], 64); err == nil {
			return f
		}
	}
	return 0
}
