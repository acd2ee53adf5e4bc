package pcp

// Type is a metric's data type, PM_TYPE_* in PCP.
type Type int32

// The metric data types, with PCP's numbers.
const (
	TypeNoSupport       Type = -1  // PM_TYPE_NOSUPPORT: not implemented
	Type32              Type = 0   // PM_TYPE_32
	TypeU32             Type = 1   // PM_TYPE_U32
	Type64              Type = 2   // PM_TYPE_64
	TypeU64             Type = 3   // PM_TYPE_U64
	TypeFloat           Type = 4   // PM_TYPE_FLOAT
	TypeDouble          Type = 5   // PM_TYPE_DOUBLE
	TypeString          Type = 6   // PM_TYPE_STRING
	TypeAggregate       Type = 7   // PM_TYPE_AGGREGATE
	TypeAggregateStatic Type = 8   // PM_TYPE_AGGREGATE_STATIC
	TypeEvent           Type = 9   // PM_TYPE_EVENT: packed event records
	TypeHighResEvent    Type = 10  // PM_TYPE_HIGHRES_EVENT
	TypeUnknown         Type = 255 // PM_TYPE_UNKNOWN: only in value blocks
)

// Sem is a metric's semantics, PM_SEM_* in PCP.
type Sem int32

// The semantics, with PCP's numbers (2 was PM_SEM_RATE, long retired).
const (
	SemCounter  Sem = 1 // PM_SEM_COUNTER: monotonic cumulative counter
	SemInstant  Sem = 3 // PM_SEM_INSTANT: instantaneous, continuous domain
	SemDiscrete Sem = 4 // PM_SEM_DISCRETE: instantaneous, discrete domain
)

// Desc describes a metric, PCP's pmDesc.
type Desc struct {
	PMID  PMID
	Type  Type
	InDom InDom
	Sem   Sem
	Units Units
}
