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
				x, _ := pcp.Float64(t, a) // t is numeric: typeOf refuses the rest
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
