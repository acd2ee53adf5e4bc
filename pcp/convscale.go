package pcp

// ConvScale rescales in, a value of numeric type t measured in inUnits, to
// outUnits, as pmConvScale does.
//
// The dimensions must agree (ErrConv otherwise); a value with no dimension
// at all counts as a count. Space scales run from bytes to exabytes and
// time scales from nanoseconds to hours; any other scale of a dimension in
// use gives ErrUnit. A type other than the six numeric ones gives ErrConv
// once the units are found acceptable.
//
// Arithmetic follows libpcp exactly: the conversion factor is a ratio of
// two 64-bit integers built up with wrapping multiplication; integers are
// scaled in 64-bit arithmetic that wraps on overflow, adding half the
// divisor before a division that truncates towards zero (so positive values
// round half up, negative ones lean towards zero); floats and doubles are
// multiplied by the factor computed in their own precision. Where the divisor wraps to zero libpcp dies with
// SIGFPE; ConvScale answers ErrConv.
//
// Units fields are taken as the 4-bit fields of C's pmUnits (as Pack
// stores them), so out-of-range Go values wrap as they would on the wire.
// On error the returned Atom is zero (libpcp leaves its output untouched).
func ConvScale(t Type, in Atom, inUnits Units, outUnits Units) (Atom, error) {
	iu := asDimensioned(UnpackUnits(inUnits.Pack()))
	ou := asDimensioned(UnpackUnits(outUnits.Pack()))
	if iu.DimSpace != ou.DimSpace || iu.DimTime != ou.DimTime || iu.DimCount != ou.DimCount {
		return Atom{}, ErrConv
	}

	mult, div := int64(1), int64(1)
	for _, d := range [...]struct {
		dim     int8
		in, out int
		scale   func(int) (num, den int64, ok bool)
	}{
		{iu.DimSpace, int(iu.ScaleSpace), int(ou.ScaleSpace), spaceScale},
		{iu.DimTime, int(iu.ScaleTime), int(ou.ScaleTime), timeScale},
		{iu.DimCount, int(iu.ScaleCount), int(ou.ScaleCount), countScale},
	} {
		if d.dim == 0 {
			continue
		}
		inNum, inDen, ok1 := d.scale(d.in)
		outNum, outDen, ok2 := d.scale(d.out)
		if !ok1 || !ok2 {
			return Atom{}, ErrUnit
		}
		mult, div = raise(mult, div, inNum*outDen, inDen*outNum, d.dim)
	}
	if div == 0 {
		return Atom{}, ErrConv
	}
	if mult%div == 0 {
		mult, div = mult/div, 1
	}

	switch t {
	case Type32:
		return Atom{L: int32((int64(in.L)*mult + div/2) / div)}, nil
	case TypeU32:
		return Atom{UL: uint32((int64(in.UL)*mult + div/2) / div)}, nil
	case Type64:
		return Atom{LL: (in.LL*mult + div/2) / div}, nil
	case TypeU64:
		return Atom{ULL: (in.ULL*uint64(mult) + uint64(div/2)) / uint64(div)}, nil
	case TypeFloat:
		return Atom{F: in.F * (float32(mult) / float32(div))}, nil
	case TypeDouble:
		return Atom{D: in.D * (float64(mult) / float64(div))}, nil
	}
	return Atom{}, ErrConv
}

// asDimensioned gives a dimensionless unit the count dimension, keeping
// its count scale, so that "x 10^3" converts to and from counts.
func asDimensioned(u Units) Units {
	if u.DimSpace == 0 && u.DimTime == 0 && u.DimCount == 0 {
		u.DimCount = 1
	}
	return u
}

// raise multiplies the factor mult/div by (m/d)^dim, wrapping as libpcp's
// 64-bit arithmetic does.
func raise(mult, div, m, d int64, dim int8) (int64, int64) {
	if dim < 0 {
		m, d, dim = d, m, -dim
	}
	for range dim {
		mult *= m
		div *= d
	}
	return mult, div
}

// spaceScale is the size of one unit of a space scale as the fraction
// num/den of a megabyte, libpcp's reference unit for space.
func spaceScale(scale int) (num, den int64, ok bool) {
	s := uint8(scale)
	switch s {
	case SpaceByte:
		return 1, 1 << 20, true
	case SpaceKByte:
		return 1, 1 << 10, true
	case SpaceMByte:
		return 1, 1, true
	case SpaceGByte:
		return 1 << 10, 1, true
	case SpaceTByte:
		return 1 << 20, 1, true
	case SpacePByte:
		return 1 << 30, 1, true
	case SpaceEByte:
		return 1 << 40, 1, true
	}
	// Zetta- and yottabytes are valid units that pmConvScale rejects.
	return 0, 0, false
}

// timeScale is the length of one unit of a time scale as the fraction
// num/den of a second.
func timeScale(scale int) (num, den int64, ok bool) {
	s := uint8(scale)
	switch s {
	case TimeNSec:
		return 1, 1e9, true
	case TimeUSec:
		return 1, 1e6, true
	case TimeMSec:
		return 1, 1e3, true
	case TimeSec:
		return 1, 1, true
	case TimeMin:
		return 60, 1, true
	case TimeHour:
		return 3600, 1, true
	}
	return 0, 0, false
}

// countScale is 10^s as a fraction; every count scale converts.
func countScale(s int) (num, den int64, ok bool) {
	num, den = 1, 1
	for ; s > 0; s-- {
		num *= 10
	}
	for ; s < 0; s++ {
		den *= 10
	}
	return num, den, true
}
