package pcp

import "strconv"

// unitsSpaceNames and unitsTimeNames are pmUnitsStr's words for each defined scale.
var (
	unitsSpaceNames = [...]string{"byte", "Kbyte", "Mbyte", "Gbyte", "Tbyte", "Pbyte", "Ebyte", "Zbyte", "Ybyte"}
	unitsTimeNames  = [...]string{"nanosec", "microsec", "millisec", "sec", "min", "hour"}
)

// String returns pmUnitsStr's text for u, e.g. "Kbyte / sec",
// "count x 10^6", "byte^2 / millisec". Dimensions with a positive power
// come first, then "/" and those with a negative one; a power other than
// one is shown as "^n". An undefined scale is shown as "space-n" or
// "time-n". With no dimension at all the text is empty, or "x 10^n" when
// the count scale is not zero, as PCP has it.
func (u Units) String() string {
	var buf [64]byte
	b := buf[:0]
	for _, neg := range [2]bool{false, true} {
		if neg {
			if u.DimSpace >= 0 && u.DimTime >= 0 && u.DimCount >= 0 {
				break
			}
			b = append(b, "/ "...)
		}
		for axis := range 3 {
			dim := [3]int8{u.DimSpace, u.DimTime, u.DimCount}[axis]
			if dim == 0 || (dim < 0) != neg {
				continue
			}
			b = u.appendAxis(b, axis)
			if pow := unitsAbs(dim); pow != 1 {
				b = append(b, '^')
				b = strconv.AppendInt(b, pow, 10)
			}
			b = append(b, ' ')
		}
	}
	if len(b) == 0 {
		switch u.ScaleCount {
		case 0:
			return ""
		case 1:
			return "x 10"
		}
		b = append(b, "x 10^"...)
		b = strconv.AppendInt(b, int64(u.ScaleCount), 10)
		return string(b)
	}
	return string(b[:len(b)-1])
}

// appendAxis appends the name of one dimension's unit at u's scale: axis
// 0 is space, 1 time, 2 count.
func (u Units) appendAxis(b []byte, axis int) []byte {
	switch axis {
	case 0:
		if int(u.ScaleSpace) < len(unitsSpaceNames) {
			return append(b, unitsSpaceNames[u.ScaleSpace]...)
		}
		return strconv.AppendUint(append(b, "space-"...), uint64(u.ScaleSpace), 10)
	case 1:
		if int(u.ScaleTime) < len(unitsTimeNames) {
			return append(b, unitsTimeNames[u.ScaleTime]...)
		}
		return strconv.AppendUint(append(b, "time-"...), uint64(u.ScaleTime), 10)
	}
	b = append(b, "count"...)
	switch u.ScaleCount {
	case 0:
		return b
	case 1:
		return append(b, " x 10"...)
	}
	return strconv.AppendInt(append(b, " x 10^"...), int64(u.ScaleCount), 10)
}

// unitsAbs widens before negating so -128 has an absolute value too.
func unitsAbs(n int8) int64 {
	if n < 0 {
		return -int64(n)
	}
	return int64(n)
}
