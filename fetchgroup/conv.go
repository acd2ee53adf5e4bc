package fetchgroup

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// conversion is what a scale string asks of a metric's values.
type conversion struct {
	rate  bool      // divide the difference from the previous fetch by the time between
	units bool      // rescale to out and multiply by mult
	out   pcp.Units // the metric's dimensions, the requested scales
	mult  float64
}

// timeMultiplier turns a rate per second into one per the time unit of a
// scale expression such as "count/hour".
var timeMultiplier = map[uint8]float64{
	pcp.TimeNSec: 1e-9, pcp.TimeUSec: 1e-6, pcp.TimeMSec: 1e-3,
	pcp.TimeSec: 1, pcp.TimeMin: 60, pcp.TimeHour: 3600,
}

// prepare checks that values described by d convert to type out under
// scale, and says how.
func prepare(d pcp.Desc, scale string, out pcp.Type) (conversion, error) {
	var c conversion
	if !convertible(d.Type) {
		return c, fmt.Errorf("values of type %s cannot be converted: %w", typeName(d.Type), pcp.ErrType)
	}
	if !convertible(out) {
		return c, fmt.Errorf("output type %s: %w", typeName(out), pcp.ErrType)
	}
	switch scale {
	case "":
		c.rate = d.Sem == pcp.SemCounter
		return c, nil
	case "rate":
		c.rate = true
		return c, nil
	case "instant":
		return c, nil
	}
	u, mult, err := pcp.ParseUnits(scale)
	if err != nil {
		return c, fmt.Errorf("scale %q: %w", scale, err)
	}
	c.out, c.mult, c.units = u, mult, true
	in := d.Units
	if in.DimSpace != u.DimSpace || in.DimCount != u.DimCount {
		return c, fmt.Errorf("scale %q does not have the dimensions of the metric's units: %w", scale, pcp.ErrConv)
	}
	switch in.DimTime {
	case u.DimTime:
		return c, nil
	case u.DimTime + 1:
		m, ok := timeMultiplier[u.ScaleTime]
		if !ok {
			return c, fmt.Errorf("scale %q: time scale %d: %w", scale, u.ScaleTime, pcp.ErrConv)
		}
		c.mult *= m
		c.out.DimTime++
		c.rate = true
		return c, nil
	}
	return c, fmt.Errorf("scale %q does not have the dimensions of the metric's units: %w", scale, pcp.ErrConv)
}

func typeName(t pcp.Type) string { return t.String() }

// extractAs converts one value of type in to out as pmExtractValue does,
// and also between numbers and strings: a number becomes its decimal or
// %e text, a string is parsed as pmstore parses its argument.
func extractAs(valfmt pcp.ValFmt, v *pcp.Value, in, out pcp.Type) (pcp.Atom, error) {
	switch {
	case in != pcp.TypeString && out == pcp.TypeString:
		a, err := pcp.ExtractValue(valfmt, v, in, in)
		if err != nil {
			return pcp.Atom{}, err
		}
		var s string
		switch in {
		case pcp.Type32:
			s = strconv.FormatInt(int64(a.L), 10)
		case pcp.TypeU32:
			s = strconv.FormatUint(uint64(a.UL), 10)
		case pcp.Type64:
			s = strconv.FormatInt(a.LL, 10)
		case pcp.TypeU64:
			s = strconv.FormatUint(a.ULL, 10)
		case pcp.TypeFloat:
			s = formatE(float64(a.F), 9)
		case pcp.TypeDouble:
			s = formatE(a.D, 17)
		}
		return pcp.Atom{CP: s}, nil
	case in == pcp.TypeString && out != pcp.TypeString:
		a, err := pcp.ExtractValue(valfmt, v, in, pcp.TypeString)
		if err != nil {
			return pcp.Atom{}, err
		}
		return pmapi.StringValue(a.CP, out)
	}
	return pcp.ExtractValue(valfmt, v, in, out)
}

// at says where a value was found in a fetch, for looking first at the
// same place in the previous one; set < 0 means nowhere.
type at struct{ set, val int }

var nowhere = at{-1, -1}

// find locates the value of instance inst (any instance when the metric
// has none) in the first value set for pmid at or after sets[from],
// looking first where hint says; the error is the set's, or
// pcp.ErrValue when there is no such value.
func find(sets []pcp.ValueSet, from int, pmid pcp.PMID, d *pcp.Desc, inst int32, hint at) (pcp.ValFmt, *pcp.Value, error) {
	if hint.set >= from && hint.set < len(sets) && sets[hint.set].PMID == pmid {
		s := &sets[hint.set]
		if s.NumVal < 0 {
			return 0, nil, pcp.Error(s.NumVal)
		}
		if hint.val >= 0 && hint.val < len(s.Values) && (d.InDom == pcp.InDomNull || s.Values[hint.val].Inst == inst) {
			return s.ValFmt, &s.Values[hint.val], nil
		}
	}
	for i := from; i < len(sets); i++ {
		s := &sets[i]
		if s.PMID != pmid {
			continue
		}
		if s.NumVal < 0 {
			return 0, nil, pcp.Error(s.NumVal)
		}
		if d.InDom == pcp.InDomNull {
			if len(s.Values) > 0 {
				return s.ValFmt, &s.Values[0], nil
			}
			continue
		}
		// Fetch sorts every value set by instance.
		if j, ok := slices.BinarySearchFunc(s.Values, inst, cmpInst); ok {
			return s.ValFmt, &s.Values[j], nil
		}
	}
	return 0, nil, pcp.ErrValue
}

// asDouble is extractAs to a double, without the Atom for the numbers
// that come most often.
func asDouble(valfmt pcp.ValFmt, v *pcp.Value, t pcp.Type) (float64, error) {
	if valfmt == pcp.ValInSitu {
		switch t {
		case pcp.Type32:
			return float64(v.LVal), nil
		case pcp.TypeU32:
			return float64(uint32(v.LVal)), nil
		}
	}
	a, err := extractAs(valfmt, v, t, pcp.TypeDouble)
	return a.D, err
}

// sample is one fetched result: the value sets and their time.
type sample struct {
	sets []pcp.ValueSet
	ts   pcp.Timestamp
}

// value is one output value: the value set for pmid found from sets[from]
// on (looking first where hint says), converted under c to out, with
// g.prev (when not nil) the previous fetch for rates.
func (g *Group) value(cur *sample, from int, pmid pcp.PMID, d *pcp.Desc, inst int32, c *conversion, out pcp.Type, hint at) (pcp.Atom, error) {
	valfmt, pv, err := find(cur.sets, from, pmid, d, inst, hint)
	if err != nil {
		return pcp.Atom{}, err
	}
	if !c.rate && !c.units {
		return extractAs(valfmt, pv, d.Type, out)
	}
	v, err := asDouble(valfmt, pv, d.Type)
	if err != nil {
		return pcp.Atom{}, err
	}
	if c.rate {
		if g.prev == nil {
			return pcp.Atom{}, pcp.ErrAgain
		}
		dt := cur.ts.Sub(g.prev.ts)
		if dt < 1e-9 {
			dt = 1e-9
		}
		pfmt, ppv, err := find(g.prev.sets, from, pmid, d, inst, hint)
		if err != nil {
			return pcp.Atom{}, err
		}
		p, err := asDouble(pfmt, ppv, d.Type)
		if err != nil {
			return pcp.Atom{}, err
		}
		delta, ok := pcp.CounterDelta(d.Type, v, p, g.wrap)
		if !ok {
			return pcp.Atom{}, pcp.ErrValue
		}
		v = delta / dt
	}
	if c.units {
		s, err := pcp.ConvScale(pcp.TypeDouble, pcp.Atom{D: v}, d.Units, c.out)
		if err != nil {
			return pcp.Atom{}, err
		}
		v = s.D * c.mult
	}
	return fromDouble(v, out)
}

func cmpInst(v pcp.Value, inst int32) int {
	switch {
	case v.Inst < inst:
		return -1
	case v.Inst > inst:
		return 1
	}
	return 0
}
