package series

import (
	"math"
	"strings"

	"github.com/gopcp/gopcp/pcp"
)

// Arithmetic between two expressions as libpcp_web 6.0.3 computes it:
// the operands' instance domains, sample counts and semantics checked by
// its rules and in its words, values read in the result's type (the
// wider of the two, double for division or differing scales), scaled to
// the larger units and combined instance by instance; an unsigned
// subtraction below zero or a product that overflows is "no value".

func semOf(s string) int {
	switch {
	case strings.HasPrefix(s, "counter"):
		return 1
	case strings.HasPrefix(s, "instant"):
		return 3
	case strings.HasPrefix(s, "discrete"):
		return 4
	}
	return -1
}

func unitsOf(s string) pcp.Units {
	u, _, err := pcp.ParseUnits(s)
	if err != nil {
		return pcp.Units{}
	}
	return u
}

func binary(e *Expr, left, right []*sset, sets map[*Expr][]*sset) ([]*sset, error) {
	if e.Op == "*" && (e.Left.Op == "number" || e.Right.Op == "number") {
		num, vec := e.Right, left
		if e.Left.Op == "number" {
			num, vec = e.Left, right
		}
		return scaleBy(num, vec), nil
	}
	if len(left) == 0 || len(right) == 0 {
		return nil, nil
	}
	if len(left) != len(right) {
		return nil, evalError("Number of series of two operands are not identical, %d and %d\n", len(left), len(right))
	}
	out := make([]*sset, len(left))
	for i := range left {
		r, err := binaryOne(e.Op, left[i].clone(), right[i])
		if err != nil {
			return nil, err
		}
		out[i] = r
	}
	return out, nil
}

func binaryOne(op string, l, r *sset) (*sset, error) {
	if l.desc.indom != r.desc.indom {
		return nil, evalError("Operands should have the same instance domain for all of the binary operators.\n")
	}
	lu, ru := unitsOf(l.desc.units), unitsOf(r.desc.units)
	if (op == "+" || op == "-") && (lu.DimCount != ru.DimCount || lu.DimTime != ru.DimTime || lu.DimSpace != ru.DimSpace) {
		return nil, evalError("Dimensions of two operands mismatch\n")
	}
	if l.num != r.num {
		return nil, evalError("Number of samples of two metrics are not identical, %s has %d but %s has %d\n", l.sid, l.num, r.sid, r.num)
	}
	ls, rs := semOf(l.desc.sem), semOf(r.desc.sem)
	switch {
	case ls == 1 && rs == 1 && op != "+" && op != "-":
		return nil, evalError("Both operands have the semantics of counter, only addition or subtraction is allowed.\n")
	case ls == 1 && rs != 1 && op != "*" && op != "/":
		return nil, evalError("Left operand is a counter and the right one is not, only multiplication or division is allowed.\n")
	case ls != 1 && rs == 1 && op != "*":
		return nil, evalError("Left operand is not a counter and the right one is, only multiplication is allowed.\n")
	}
	lt, ok1 := typeOf(l.desc.typ)
	rt, ok2 := typeOf(r.desc.typ)
	if !ok1 || !ok2 {
		return nil, evalError("Series values' Type extract fail, unsupported type\n")
	}
	large := pcp.Units{
		ScaleCount: max(lu.ScaleCount, ru.ScaleCount),
		ScaleSpace: max(lu.ScaleSpace, ru.ScaleSpace),
		ScaleTime:  max(lu.ScaleTime, ru.ScaleTime),
	}
	sameScale := func(u pcp.Units) bool {
		return u.ScaleCount == large.ScaleCount && u.ScaleSpace == large.ScaleSpace && u.ScaleTime == large.ScaleTime
	}
	if !sameScale(lu) {
		lt = pcp.TypeDouble
	}
	if !sameScale(ru) {
		rt = pcp.TypeDouble
	}
	var otype pcp.Type
	switch {
	case lt == pcp.TypeDouble || rt == pcp.TypeDouble || op == "/":
		otype = pcp.TypeDouble
	case lt == pcp.TypeFloat || rt == pcp.TypeFloat:
		otype = pcp.TypeFloat
	case lt == pcp.TypeU64 || rt == pcp.TypeU64:
		otype = pcp.TypeU64
	case lt == pcp.Type64 || rt == pcp.Type64:
		otype = pcp.Type64
	case lt == pcp.TypeU32 || rt == pcp.TypeU32:
		otype = pcp.TypeU32
	default:
		otype = pcp.Type32
	}
	// Scales are brought to the larger only where a dimension is in use
	// on both sides with the same power; elsewhere the values stay as
	// they are (libpcp_web's conversion fails there and it goes on).
	lto, rto := lu, ru
	lto.ScaleCount, lto.ScaleSpace, lto.ScaleTime = large.ScaleCount, large.ScaleSpace, large.ScaleTime
	rto.ScaleCount, rto.ScaleSpace, rto.ScaleTime = large.ScaleCount, large.ScaleSpace, large.ScaleTime
	for j := 0; j < l.num && j < len(l.samples); j++ {
		if len(l.samples[j]) != len(r.samples[j]) {
			return nil, evalError("Number of instances of two metrics are inconsistent.\n")
		}
		for k := range l.samples[j] {
			a, b := scanAtom(otype, l.samples[j][k].data), scanAtom(otype, r.samples[j][k].data)
			if !sameScale(lu) {
				if c, err := pcp.ConvScale(otype, a, lu, lto); err == nil {
					a = c
				}
			}
			if !sameScale(ru) {
				if c, err := pcp.ConvScale(otype, b, ru, rto); err == nil {
					b = c
				}
			}
			res, ok := arith(op, otype, a, b)
			if !ok {
				l.samples[j][k].data = "no value"
				continue
			}
			l.samples[j][k].data = formatAtom(otype, res)
		}
	}
	out := lu
	out.ScaleCount, out.ScaleSpace, out.ScaleTime = large.ScaleCount, large.ScaleSpace, large.ScaleTime
	switch op {
	case "*":
		out.DimCount, out.DimSpace, out.DimTime = lu.DimCount+ru.DimCount, lu.DimSpace+ru.DimSpace, lu.DimTime+ru.DimTime
	case "/":
		out.DimCount, out.DimSpace, out.DimTime = lu.DimCount-ru.DimCount, lu.DimSpace-ru.DimSpace, lu.DimTime-ru.DimTime
	}
	sem := "instant"
	switch {
	case ls == 4 && rs == 4:
		sem = "discrete"
	case ls == 1 && rs == 1:
		sem = "counter"
	}
	l.desc.units, l.desc.typ, l.desc.sem = out.String(), typeWords[otype], sem
	return l, nil
}

func arith(op string, t pcp.Type, a, b pcp.Atom) (pcp.Atom, bool) {
	var r pcp.Atom
	switch op {
	case "+":
		r.L, r.UL, r.LL, r.ULL, r.F, r.D = a.L+b.L, a.UL+b.UL, a.LL+b.LL, a.ULL+b.ULL, a.F+b.F, a.D+b.D
	case "-":
		if t == pcp.TypeU32 && a.UL < b.UL || t == pcp.TypeU64 && a.ULL < b.ULL {
			return r, false
		}
		r.L, r.UL, r.LL, r.ULL, r.F, r.D = a.L-b.L, a.UL-b.UL, a.LL-b.LL, a.ULL-b.ULL, a.F-b.F, a.D-b.D
	case "*":
		switch t {
		case pcp.Type32:
			if a.L != 0 && int64(a.L)*int64(b.L) != int64(a.L*b.L) {
				return r, false
			}
		case pcp.TypeU32:
			if b.UL != 0 && a.UL > math.MaxUint32/b.UL {
				return r, false
			}
		case pcp.Type64:
			if a.LL != 0 && (a.LL*b.LL)/a.LL != b.LL {
				return r, false
			}
		case pcp.TypeU64:
			if b.ULL != 0 && a.ULL > math.MaxUint64/b.ULL {
				return r, false
			}
		}
		r.L, r.UL, r.LL, r.ULL, r.F, r.D = a.L*b.L, a.UL*b.UL, a.LL*b.LL, a.ULL*b.ULL, a.F*b.F, a.D*b.D
	case "/":
		// the type is double
		r.D = a.D / b.D
	}
	return r, true
}

// scaleBy multiplies every value by a number: %e of the product; a
// double factor makes the result a double of instant semantics.
func scaleBy(num *Expr, vec []*sset) []*sset {
	f := cfloat(num.Value)
	if !num.IsDouble {
		f = float64(int32(scanAtom(pcp.Type32, num.Value).L))
	}
	out := make([]*sset, len(vec))
	for i, ss := range vec {
		c := ss.clone()
		for _, smp := range samplesIn(c) {
			for k := range smp {
				smp[k].data = pcp.FormatFloat(cfloat(smp[k].data)*f, 'e', 6)
			}
		}
		if num.IsDouble {
			c.desc.typ, c.desc.sem = "double", "instant"
		}
		out[i] = c
	}
	return out
}
