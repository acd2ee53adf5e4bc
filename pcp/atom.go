package pcp

// Atom holds one value of any type, PCP's pmAtomValue. Where C has a union,
// only the field that matches the value's Type is meaningful.
type Atom struct {
	L   int32       // Type32
	UL  uint32      // TypeU32
	LL  int64       // Type64
	ULL uint64      // TypeU64
	F   float32     // TypeFloat
	D   float64     // TypeDouble
	CP  string      // TypeString
	VBP *ValueBlock // TypeAggregate, TypeEvent, TypeHighResEvent
}
