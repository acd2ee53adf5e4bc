package mmv

// Type is a metric's value type as MMV files record it: PCP's PM_TYPE_*
// codes, plus Elapsed.
type Type int32

// The value types an MMV file can hold. Aggregates and events are not
// part of the format.
const (
	Int32   Type = 0
	Uint32  Type = 1
	Int64   Type = 2
	Uint64  Type = 3
	Float   Type = 4
	Double  Type = 5
	String  Type = 6
	Elapsed Type = 9 // microseconds in timed sections; served as a 64-bit counter
)

func (t Type) valid() bool { return t >= Int32 && t <= String || t == Elapsed }

// Semantics is a metric's PM_SEM_* code.
type Semantics int32

// The semantics PCP defines.
const (
	SemCounter  Semantics = 1
	SemInstant  Semantics = 3
	SemDiscrete Semantics = 4
)

func (s Semantics) valid() bool { return s == SemCounter || s == SemInstant || s == SemDiscrete }

// Flags are the header flags (MMV_FLAG_*).
type Flags uint32

// The flags pmdammv honours.
const (
	// NoPrefix names metrics mmv.<name> instead of mmv.<file>.<name>.
	NoPrefix Flags = 1
	// Process makes pmdammv drop the file once the writing process has
	// exited; Close removes such a file.
	Process Flags = 2
	// Sentinel makes pmdammv serve an integer of all one bits, or an
	// empty string, as "no value".
	Sentinel Flags = 4
)

// allOnes is the sentinel of a number: with the Sentinel flag pmdammv
// serves no value for an integer whose whole 8-byte value field is all one
// bits. SetSentinel writes all 8 bytes, whatever the type; Set(-1) on a
// 32-bit value writes only the low 4.
const allOnes = ^uint64(0)
