package series

import (
	"math"
	"strconv"
	"strings"

	"github.com/gopcp/gopcp/pcp"
)

// typeOf is libpcp_web's reading of a descriptor's type word (by its
// prefix, either case); ok false for the types functions refuse.
func typeOf(word string) (pcp.Type, bool) {
	w := strings.ToLower(word)
	switch {
	case strings.HasPrefix(w, "32"):
		return pcp.Type32, true
	case strings.HasPrefix(w, "u32"):
		return pcp.TypeU32, true
	case strings.HasPrefix(w, "64"):
		return pcp.Type64, true
	case strings.HasPrefix(w, "u64"):
		return pcp.TypeU64, true
	case strings.HasPrefix(w, "float"):
		return pcp.TypeFloat, true
	case strings.HasPrefix(w, "double"):
		return pcp.TypeDouble, true
	}
	return 0, false
}

var typeWords = map[pcp.Type]string{
	pcp.Type32: "32", pcp.TypeU32: "U32", pcp.Type64: "64", pcp.TypeU64: "U64",
	pcp.TypeFloat: "FLOAT", pcp.TypeDouble: "DOUBLE",
}

// scanAtom is sscanf of a value's text in a type's C format.
func scanAtom(t pcp.Type, s string) pcp.Atom {
	var a pcp.Atom
	s = strings.TrimSpace(s)
	lead := func(signed bool) string {
		i := 0
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		return s[:i]
	}
	switch t {
	case pcp.Type32:
		v, _ := strconv.ParseInt(lead(true), 10, 64)
		a.L = int32(v)
	case pcp.TypeU32:
		v, _ := strconv.ParseInt(lead(true), 10, 64)
		a.UL = uint32(v)
	case pcp.Type64:
		a.LL, _ = strconv.ParseInt(lead(true), 10, 64)
	case pcp.TypeU64:
		txt := lead(true)
		if v, err := strconv.ParseUint(strings.TrimPrefix(txt, "+"), 10, 64); err == nil {
			a.ULL = v
		} else if v, err := strconv.ParseInt(txt, 10, 64); err == nil {
			a.ULL = uint64(v)
		}
	case pcp.TypeFloat:
		a.F = float32(cfloat(s))
	case pcp.TypeDouble:
		a.D = cfloat(s)
	}
	return a
}

// formatAtom is pmAtomStr's text of a number: %d, %u, or %e.
func formatAtom(t pcp.Type, a pcp.Atom) string {
	switch t {
	case pcp.Type32:
		return strconv.FormatInt(int64(a.L), 10)
	case pcp.TypeU32:
		return strconv.FormatUint(uint64(a.UL), 10)
	case pcp.Type64:
		return strconv.FormatInt(a.LL, 10)
	case pcp.TypeU64:
		return strconv.FormatUint(a.ULL, 10)
	case pcp.TypeFloat:
		return pcp.FormatFloat(float64(a.F), 'e', 6)
	}
	return pcp.FormatFloat(a.D, 'e', 6)
}

func (ss *sset) clone() *sset {
	c := *ss
	c.samples = make([][]ival, len(ss.samples))
	for j, smp := range ss.samples {
		c.samples[j] = append([]ival(nil), smp...)
	}
	return &c
}

// calculate evaluates e bottom up over the vectors' sets. Refusals are
// gathered as libpcp_web reports them and evaluation goes on with what
// is left, as it does: rate refuses series by series, another function
// stops at its first refusal and passes its operand through, and a
// refused operation between two operands leaves no series. The error,
// if any, is a *QueryError holding every message in turn, returned
// with the sets left.
func calculate(e *Expr, sets map[*Expr][]*sset) ([]*sset, error) {
	switch e.Op {
	case "vector":
		return sets[e], nil
	case "number":
		return nil, nil
	}
	var qerr *QueryError
	note := func(err error) error {
		if err == nil {
			return nil
		}
		qe, ok := err.(*QueryError)
		if !ok {
			return err // Redis's: no going on
		}
		if qerr == nil {
			qerr = &QueryError{Msg: qe.Msg, More: append([]string(nil), qe.More...)}
		} else {
			qerr.More = append(qerr.More, append([]string{qe.Msg}, qe.More...)...)
		}
		return nil
	}
	done := func(out []*sset) ([]*sset, error) {
		if qerr != nil {
			return out, qerr
		}
		return out, nil
	}
	left, err := calculate(e.Left, sets)
	if err := note(err); err != nil {
		return nil, err
	}
	var right []*sset
	if e.Right != nil {
		right, err = calculate(e.Right, sets)
		if err := note(err); err != nil {
			return nil, err
		}
	}
	switch e.Op {
	case "+", "-", "*", "/":
		out, err := binary(e, left, right, sets)
		if err := note(err); err != nil {
			return nil, err
		}
		return done(out)
	}
	out := make([]*sset, 0, len(left))
	for i, ss := range left {
		if e.Op == "rate" && !strings.HasPrefix(ss.desc.sem, "counter") {
			// the refused series keeps a rate's descriptor, no values
			note(evalError("Can't rate convert '%s', counter semantics required\n", canonicalAt(e.Left, sets, i)))
			c := ss.clone()
			c.samples, c.num = nil, 0
			rateDesc(c)
			out = append(out, c)
			continue
		}
		r, err := apply(e, ss.clone(), sets)
		if err != nil {
			if err := note(err); err != nil {
				return nil, err
			}
			return done(left)
		}
		out = append(out, r)
	}
	return done(out)
}

// apply evaluates a function of one operand on one series.
func apply(e *Expr, ss *sset, sets map[*Expr][]*sset) (*sset, error) {
	switch e.Op {
	case "rate":
		return rate(ss)
	case "max", "max_inst", "min", "min_inst":
		return pickInst(ss, strings.HasPrefix(e.Op, "max")), nil
	case "max_sample", "min_sample":
		return pickSample(ss, e.Op == "max_sample"), nil
	case "sum", "sum_inst", "avg", "avg_inst":
		return statInst(ss, strings.HasPrefix(e.Op, "avg")), nil
	case "sum_sample", "avg_sample":
		return statSample(ss, e.Op == "avg_sample"), nil
	case "stdev_inst":
		return stdevInst(ss), nil
	case "stdev_sample":
		return stdevSample(ss), nil
	case "topk_inst", "topk_sample":
		k, _ := strconv.Atoi(e.Value)
		if e.Op == "topk_inst" {
			return topkInst(ss, k), nil
		}
		return topkSample(ss, k), nil
	case "nth_percentile_inst", "nth_percentile_sample":
		n, _ := strconv.Atoi(e.Value)
		if e.Op == "nth_percentile_inst" {
			return percentileInst(ss, n), nil
		}
		return percentileSample(ss, n), nil
	case "rescale":
		return rescale(e, ss)
	case "abs", "floor", "round", "log", "sqrt":
		return mapValues(e, ss)
	}
	return nil, evalError("unsupported function %s", e.Op)
}

func rate(ss *sset) (*sset, error) {
	n := ss.num
	if n > 0 {
		nInst := len(ss.samples[0])
		for j := 1; j < n; j++ {
			if len(ss.samples[j]) != nInst {
				continue
			}
			// PCP reads the previous sample's instances without a check;
			// where it has fewer, there is nothing to rate.
			for k := 0; k < nInst && k < len(ss.samples[j-1]); k++ {
				t, s := ss.samples[j-1][k], ss.samples[j][k]
				delta := float64(t.ts.Sec-s.ts.Sec) + float64(int64(t.ts.Nsec)-int64(s.ts.Nsec))/1e9
				v := (cfloat(t.data) - cfloat(s.data)) / delta
				ss.samples[j-1][k] = ival{stamp: s.stamp, ts: s.ts, inst: t.inst, data: pcp.FormatFloat(v, 'f', 6)}
			}
			if j == n-1 {
				ss.num--
			}
		}
	}
	rateDesc(ss)
	return ss, nil
}

// rateDesc is a rate's descriptor: a double, instant, per second.
func rateDesc(ss *sset) {
	u, _, _ := pcp.ParseUnits(ss.desc.units)
	u.DimTime--
	u.ScaleTime = pcp.TimeSec
	ss.desc.typ, ss.desc.sem, ss.desc.units = "double", "instant", u.String()
}

// samplesIn is the samples a function reads (libpcp_web's count, which
// rate may have lowered).
func samplesIn(ss *sset) [][]ival { return ss.samples[:min(ss.num, len(ss.samples))] }

// pickInst is max/min over time for each instance: one sample of each
// instance's extreme value, at its time. Samples with another number of
// instances than the first are passed over, as PCP passes them.
func pickInst(ss *sset, isMax bool) *sset {
	in := samplesIn(ss)
	out := *ss
	out.samples, out.num = nil, 0
	if len(in) == 0 {
		return &out
	}
	nInst := len(in[0])
	res := make([]ival, nInst)
	for k := 0; k < nInst; k++ {
		best := 0
		bv := cfloat(in[0][k].data)
		for j := 1; j < len(in); j++ {
			if len(in[j]) != nInst {
				continue
			}
			v := cfloat(in[j][k].data)
			if isMax && bv < v || !isMax && bv > v {
				bv, best = v, j
			}
		}
		res[k] = in[best][k]
	}
	out.samples, out.num = [][]ival{res}, 1
	return &out
}

// pickSample is max/min across instances at each sample.
func pickSample(ss *sset, isMax bool) *sset {
	in := samplesIn(ss)
	out := *ss
	out.samples = make([][]ival, len(in))
	out.num = len(in)
	for j, smp := range in {
		if len(smp) == 0 {
			continue // PCP reads past an empty sample's end here
		}
		best := 0
		bv := cfloat(smp[0].data)
		if len(smp) == len(in[0]) {
			for k := 1; k < len(smp); k++ {
				v := cfloat(smp[k].data)
				if isMax && bv < v || !isMax && bv > v {
					bv, best = v, k
				}
			}
		}
		out.samples[j] = []ival{smp[best]}
	}
	return &out
}

func statInst(ss *sset, avg bool) *sset {
	in := samplesIn(ss)
	out := *ss
	out.samples, out.num = nil, 0
	if len(in) > 0 {
		nInst := len(in[0])
		res := make([]ival, nInst)
		for k := 0; k < nInst; k++ {
			sum := 0.0
			for j := range in {
				if len(in[j]) == nInst {
					sum += cfloat(in[j][k].data)
				}
			}
			if avg {
				sum /= float64(len(in))
			}
			res[k] = in[0][k]
			res[k].data = pcp.FormatFloat(sum, 'e', 6)
		}
		out.samples, out.num = [][]ival{res}, 1
	}
	out.desc.typ = "double"
	if avg {
		out.desc.sem = "instant"
	}
	return &out
}

func statSample(ss *sset, avg bool) *sset {
	in := samplesIn(ss)
	out := *ss
	out.samples = make([][]ival, len(in))
	out.num = len(in)
	for j, smp := range in {
		if len(smp) == 0 {
			continue
		}
		sum := 0.0
		for _, v := range smp {
			sum += cfloat(v.data)
		}
		if avg {
			sum /= float64(len(smp))
		}
		out.samples[j] = []ival{{stamp: smp[0].stamp, ts: smp[0].ts, data: pcp.FormatFloat(sum, 'e', 6)}}
	}
	out.desc.typ = "double"
	if avg {
		out.desc.sem = "instant"
	}
	return &out
}

func stdev(vals []float64) float64 {
	mean := 0.0
	for _, v := range vals {
		mean += v
	}
	mean /= float64(len(vals))
	sd := 0.0
	for _, v := range vals {
		sd += (v - mean) * (v - mean)
	}
	return math.Sqrt(sd / float64(len(vals)))
}

func stdevInst(ss *sset) *sset {
	in := samplesIn(ss)
	out := *ss
	out.samples, out.num = nil, 0
	if len(in) > 0 {
		nInst := len(in[0])
		res := make([]ival, nInst)
		for k := 0; k < nInst; k++ {
			var vals []float64
			for j := range in {
				if len(in[j]) == nInst {
					vals = append(vals, cfloat(in[j][k].data))
				}
			}
			res[k] = in[0][k]
			res[k].data = pcp.FormatFloat(stdev(vals), 'e', 6)
		}
		out.samples, out.num = [][]ival{res}, 1
	}
	out.desc.typ, out.desc.sem = "double", "instant"
	return &out
}

func stdevSample(ss *sset) *sset {
	in := samplesIn(ss)
	out := *ss
	out.samples = make([][]ival, len(in))
	out.num = len(in)
	for j, smp := range in {
		if len(smp) == 0 {
			continue
		}
		vals := make([]float64, len(smp))
		for k, v := range smp {
			vals[k] = cfloat(v.data)
		}
		out.samples[j] = []ival{{stamp: smp[0].stamp, ts: smp[0].ts, data: pcp.FormatFloat(stdev(vals), 'e', 6)}}
	}
	out.desc.typ, out.desc.sem = "double", "instant"
	return &out
}

// topIndexes is the indexes of the k largest values, largest first, ties
// in their order.
func topIndexes(vals []float64, k int) []int {
	idx := make([]int, 0, k)
	for i, v := range vals {
		pos := len(idx)
		for pos > 0 && vals[idx[pos-1]] < v {
			pos--
		}
		if pos >= k {
			continue
		}
		idx = append(idx, 0)
		copy(idx[pos+1:], idx[pos:])
		idx[pos] = i
		if len(idx) > k {
			idx = idx[:k]
		}
	}
	return idx
}

func topkSample(ss *sset, k int) *sset {
	in := samplesIn(ss)
	out := *ss
	out.samples = make([][]ival, len(in))
	out.num = len(in)
	for j, smp := range in {
		vals := make([]float64, len(smp))
		for i, v := range smp {
			vals[i] = cfloat(v.data)
		}
		for _, i := range topIndexes(vals, k) {
			out.samples[j] = append(out.samples[j], smp[i])
		}
	}
	out.desc.typ, out.desc.sem = "double", "instant"
	return &out
}

// topkInst is, for each instance, its k largest values over time: one
// sample per instance holding them.
func topkInst(ss *sset, k int) *sset {
	in := samplesIn(ss)
	out := *ss
	out.samples, out.num = nil, 0
	if len(in) > 0 {
		nInst := len(in[0])
		for i := 0; i < nInst; i++ {
			var vals []float64
			var from []int
			for j := range in {
				if len(in[j]) == nInst {
					vals = append(vals, cfloat(in[j][i].data))
					from = append(from, j)
				}
			}
			var smp []ival
			for _, x := range topIndexes(vals, k) {
				smp = append(smp, in[from[x]][i])
			}
			out.samples = append(out.samples, smp)
		}
		out.num = len(out.samples)
	}
	out.desc.typ, out.desc.sem = "double", "instant"
	return &out
}

// rankOf is libpcp_web's choice of the nth percentile among n values
// sorted largest first: index n-1-int(n*pct/100), or the first when that
// rank is n.
func rankOf(n, pct int) int {
	rank := int(float64(pct) / 100 * float64(n))
	if rank >= n {
		return 0
	}
	return n - 1 - rank
}

func sortedDesc(vals []float64) []int {
	return topIndexes(vals, len(vals))
}

func percentileSample(ss *sset, pct int) *sset {
	in := samplesIn(ss)
	out := *ss
	out.samples = make([][]ival, len(in))
	out.num = len(in)
	for j, smp := range in {
		if len(smp) == 0 {
			continue
		}
		vals := make([]float64, len(smp))
		for i, v := range smp {
			vals[i] = cfloat(v.data)
		}
		order := sortedDesc(vals)
		out.samples[j] = []ival{smp[order[rankOf(len(order), pct)]]}
	}
	return &out
}

func percentileInst(ss *sset, pct int) *sset {
	in := samplesIn(ss)
	out := *ss
	out.samples, out.num = nil, 0
	if len(in) > 0 {
		nInst := len(in[0])
		res := make([]ival, 0, nInst)
		for i := 0; i < nInst; i++ {
			var vals []float64
			var from []int
			for j := range in {
				if len(in[j]) == nInst {
					vals = append(vals, cfloat(in[j][i].data))
					from = append(from, j)
				}
			}
			order := sortedDesc(vals)
			res = append(res, in[from[order[rankOf(len(order), pct)]]][i])
		}
		out.samples, out.num = [][]ival{res}, 1
	}
	return &out
}

func rescale(e *Expr, ss *sset) (*sset, error) {
	u, _, err := pcp.ParseUnits(ss.desc.units)
	if err != nil {
		return nil, evalError("Units string of %s parse error, %s\n", ss.sid, err)
	}
	if u.DimCount != e.Units.DimCount || u.DimTime != e.Units.DimTime || u.DimSpace != e.Units.DimSpace {
		return nil, evalError("Dimensions of units mismatch, for series %s the units is %s\n", ss.sid, ss.desc.units)
	}
	if _, ok := typeOf(ss.desc.typ); !ok {
		return nil, evalError("Series values' Type extract fail, unsupported type\n")
	}
	for _, smp := range samplesIn(ss) {
		for k := range smp {
			a, err := pcp.ConvScale(pcp.TypeDouble, pcp.Atom{D: cfloat(smp[k].data)}, u, e.Units)
			if err != nil {
				return nil, evalError("rescale of %s: %v\n", ss.sid, err)
			}
			smp[k].data = formatAtom(pcp.TypeDouble, a)
		}
	}
	ss.desc.units = e.Units.String()
	return ss, nil
}

// mapValues is abs, floor, round, log and sqrt: each value in its type
// (log and sqrt giving doubles).
func mapValues(e *Expr, ss *sset) (*sset, error) {
	t, ok := typeOf(ss.desc.typ)
	if !ok {
		return nil, evalError("Series values' Type extract fail, unsupported type\n")
	}
	otype := t
	if e.Op == "log" || e.Op == "sqrt" {
		otype = pcp.TypeDouble
	}
	base := 0.0
	if e.Op == "log" && e.Value != "" {
		base = cfloat(e.Value)
	}
	for _, smp := range samplesIn(ss) {
		for k := range smp {
			a := scanAtom(t, smp[k].data)
			switch e.Op {
			case "abs":
				switch t {
				case pcp.Type32:
					if a.L < 0 {
						a.L = -a.L
					}
				case pcp.Type64:
					if a.LL < 0 {
						a.LL = -a.LL
					}
				case pcp.TypeFloat:
					a.F = float32(math.Abs(float64(a.F)))
				case pcp.TypeDouble:
					a.D = math.Abs(a.D)
				}
			case "floor":
				a.F = float32(math.Floor(float64(a.F)))
				a.D = math.Floor(a.D)
			case "round":
				a.F = float32(math.Round(float64(a.F)))
				a.D = math.Round(a.D)
			case "log", "sqrt":
				x := atomFloat(t, a)
				if e.Op == "sqrt" {
					a = pcp.Atom{D: math.Sqrt(x)}
				} else if e.Value == "" {
					a = pcp.Atom{D: math.Log(x)}
				} else {
					a = pcp.Atom{D: math.Log(x) / math.Log(base)}
				}
			}
			smp[k].data = formatAtom(otype, a)
		}
	}
	if otype != t {
		ss.desc.typ = typeWords[otype]
	}
	return ss, nil
}

func atomFloat(t pcp.Type, a pcp.Atom) float64 {
	switch t {
	case pcp.Type32:
		return float64(a.L)
	case pcp.TypeU32:
		return float64(a.UL)
	case pcp.Type64:
		return float64(a.LL)
	case pcp.TypeU64:
		return float64(a.ULL)
	case pcp.TypeFloat:
		return float64(a.F)
	}
	return a.D
}
