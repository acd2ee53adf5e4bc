package pcp

// Units holds a metric's dimensions (powers of space, time and count) and
// the scale of each, PCP's pmUnits.
type Units struct {
	DimSpace   int8 // -8..7
	DimTime    int8 // -8..7
	DimCount   int8 // -8..7
	ScaleSpace uint8
	ScaleTime  uint8
	ScaleCount int8 // a power of ten, -8..7
}

// Space scales, PM_SPACE_*: each a power of 1024.
const (
	SpaceByte  uint8 = 0
	SpaceKByte uint8 = 1
	SpaceMByte uint8 = 2
	SpaceGByte uint8 = 3
	SpaceTByte uint8 = 4
	SpacePByte uint8 = 5
	SpaceEByte uint8 = 6
	SpaceZByte uint8 = 7
	SpaceYByte uint8 = 8
)

// Time scales, PM_TIME_*.
const (
	TimeNSec uint8 = 0
	TimeUSec uint8 = 1
	TimeMSec uint8 = 2
	TimeSec  uint8 = 3
	TimeMin  uint8 = 4
	TimeHour uint8 = 5
)

// CountOne is PM_COUNT_ONE, the count scale 10^0.
const CountOne int8 = 0

// Pack returns the 32-bit image PCP uses for pmUnits on the wire and on
// disk: from the top, 4 bits each of dimSpace, dimTime, dimCount,
// scaleSpace, scaleTime and scaleCount, then 8 bits of padding.
func (u Units) Pack() uint32 {
	return uint32(u.DimSpace)&0xf<<28 |
		uint32(u.DimTime)&0xf<<24 |
		uint32(u.DimCount)&0xf<<20 |
		uint32(u.ScaleSpace)&0xf<<16 |
		uint32(u.ScaleTime)&0xf<<12 |
		uint32(u.ScaleCount)&0xf<<8
}

// UnpackUnits is the inverse of Pack; the padding byte is ignored. The
// signed fields are sign-extended from their four bits.
func UnpackUnits(v uint32) Units {
	signed := func(n uint32) int8 { return int8(n<<4) >> 4 }
	return Units{
		DimSpace:   signed(v >> 28 & 0xf),
		DimTime:    signed(v >> 24 & 0xf),
		DimCount:   signed(v >> 20 & 0xf),
		ScaleSpace: uint8(v >> 16 & 0xf),
		ScaleTime:  uint8(v >> 12 & 0xf),
		ScaleCount: signed(v >> 8 & 0xf),
	}
}
