package pcp

// ValFmt says where the values of a ValueSet are held, PM_VAL_* in PCP.
type ValFmt int32

// The value formats.
const (
	// ValInSitu: each value is the 32-bit Value.LVal.
	ValInSitu ValFmt = 0
	// ValDPtr: each value is a ValueBlock the result owns.
	ValDPtr ValFmt = 1
	// ValSPtr: each value is a ValueBlock whose bytes belong to someone
	// else (an agent's static buffer in C; in Go, typically the PDU buffer
	// a decoder read from). Copy before keeping it past that owner's life.
	ValSPtr ValFmt = 2
)

// ValueBlock is a value that does not fit in 32 bits: strings, 64-bit and
// floating-point numbers, aggregates and event records, PCP's pmValueBlock.
// On the wire its header is 8 bits of type and 24 bits of length, the length
// counting the 4-byte header.
type ValueBlock struct {
	Type Type
	Data []byte
}

// ValueHeaderSize is PM_VAL_HDR_SIZE, the bytes of a value block's header.
const ValueHeaderSize = 4

// MaxValueLen is PM_VAL_VLEN_MAX, the largest vlen a value block can carry.
const MaxValueLen = 0x00ffffff

// Len is the block's vlen: its header plus its data.
func (b ValueBlock) Len() int { return ValueHeaderSize + len(b.Data) }

// Value is one instance's value, PCP's pmValue. Which field holds the value
// depends on the ValFmt of the enclosing ValueSet.
type Value struct {
	Inst  int32
	LVal  int32
	Block ValueBlock
}

// ValueSet holds the values of one metric, PCP's pmValueSet. NumVal is the
// number of values, or a negative PCP error code when the metric could not
// be fetched; Values has max(NumVal, 0) entries.
type ValueSet struct {
	PMID   PMID
	NumVal int32
	ValFmt ValFmt
	Values []Value
}

// Err returns the set's error, or nil when it holds values.
func (s *ValueSet) Err() error {
	if s.NumVal < 0 {
		return Error(s.NumVal)
	}
	return nil
}

// Result is the answer to a fetch: a timestamp and one ValueSet per
// requested metric, in request order. It serves both pmResult and
// pmHighResResult, the timestamp being high-resolution in either case.
type Result struct {
	Timestamp Timestamp
	Sets      []ValueSet

	// arena is the storage Arena hands out, kept for the next decode.
	arena []byte
	// vals is the storage ValueArena hands out.
	vals []Value
}

// ValueArena returns n values of storage that belongs to r, for a decoder
// to cut every set's Values from, as Arena is for the value blocks and
// with the same reuse: the values of the last call whenever r's storage
// is big enough, so a decode into r overwrites the values decoded before.
// One store for the whole result, rather than one a set, because an
// archive's records do not put the same metric at the same place: each
// set's storage grew to the largest set ever decoded at its place (1.5 MB
// of values for pmdumplog over a QA archive of 12,000-value records,
// where the largest record needs 0.5 MB).
func (r *Result) ValueArena(n int) []Value {
	n = max(n, 0)
	if cap(r.vals) < n {
		r.vals = make([]Value, n+n/4)
	}
	return r.vals[:n]
}

// Arena returns n bytes of storage that belongs to r, for a decoder to
// copy a PDU's value blocks into and point Block.Data at, so that decoding
// into a used Result allocates nothing. The bytes are those of the last
// call whenever r's storage is big enough: calling Arena again, which
// decoding into r does, overwrites the data of values decoded before. Only
// a larger n than ever before allocates, and then the slices handed out
// earlier keep the old storage. It grows with a quarter to spare: records
// that grow a little at a time, as a process metric's instances come,
// would otherwise allocate at every one, and no collection runs in a
// short replay to take the old storage back. A negative n counts as 0.
func (r *Result) Arena(n int) []byte {
	n = max(n, 0)
	if cap(r.arena) < n {
		r.arena = make([]byte, n+n/4)
	}
	return r.arena[:n]
}

// Reset empties r while keeping its storage for reuse, the arena included.
func (r *Result) Reset() {
	for i := range r.Sets {
		r.Sets[i].Values = r.Sets[i].Values[:0]
	}
	r.Sets = r.Sets[:0]
	r.Timestamp = Timestamp{}
}
