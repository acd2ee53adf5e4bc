package mmv

import "encoding/binary"

// The on-disk layout of an MMV file (mmv(5); PCP's mmv_dev.h), shared by
// the writer here and by readers of these files. Every field is in the
// writer's native byte order, which on the platforms gopcp runs on is
// little-endian; sizes and offsets below were checked with offsetof
// against PCP 6.0.3's installed headers.

// Magic is the four bytes every MMV file starts with.
const Magic = "MMV\x00"

// Format versions: 1 is the original layout with names inline; 2 moves
// metric and instance names to the string section so they may be longer
// than 63 bytes; 3 adds labels.
const (
	Version1 = 1
	Version2 = 2
	Version3 = 3
)

// Sizes of the fixed records.
const (
	HeaderSize    = 40
	TOCSize       = 16
	InDomSize     = 32
	Instance1Size = 80
	Instance2Size = 24
	Metric1Size   = 104
	Metric2Size   = 48
	ValueSize     = 32
	StringSize    = 256 // MMV_STRINGMAX: a NUL-terminated string slot
	LabelSize     = 256
	NameMax       = 64  // MMV_NAMEMAX: inline names of version 1, NUL included
	LabelMax      = 244 // MMV_LABELMAX: a label's JSON payload, NUL included
)

// TOC entry types.
const (
	TOCInDoms    = 1
	TOCInstances = 2
	TOCMetrics   = 3
	TOCValues    = 4
	TOCStrings   = 5
	TOCLabels    = 6
)

// Header offsets.
const (
	hdrVersion = 4
	hdrG1      = 8
	hdrG2      = 16
	hdrTOCs    = 24
	hdrFlags   = 28
	hdrProcess = 32
	hdrCluster = 36
)

// Field offsets within the other records.
const (
	TOCType   = 0 // int32
	TOCCount  = 4 // int32
	TOCOffset = 8 // uint64

	InDomSerial    = 0  // uint32
	InDomCount     = 4  // uint32
	InDomInstances = 8  // uint64: offset of the first instance
	InDomShortText = 16 // uint64: string offset, 0 for none
	InDomHelpText  = 24 // uint64

	InstanceInDom    = 0  // uint64: offset of its instance domain
	InstanceInternal = 12 // int32, after 4 bytes of padding
	InstanceExternal = 16 // version 1: char[64]; later: uint64 string offset

	ValueAtom     = 0  // pmAtomValue (32-bit types in the low half)
	ValueExtra    = 8  // int64: a string's slot offset, or -start of a timed section (µs)
	ValueMetric   = 16 // uint64: offset of its metric
	ValueInstance = 24 // uint64: offset of its instance, 0 for a single value

	LabelFlags    = 0  // uint32: PM_LABEL_* type, maybe PM_LABEL_OPTIONAL
	LabelIdentity = 4  // uint32: cluster, serial or item
	LabelInternal = 8  // int32: instance id or PM_IN_NULL
	LabelPayload  = 12 // char[244]: the JSON object
)

// MetricLayout places a metric record's fields, which differ between
// version 1 (the name inline) and versions 2 and 3 (a string offset).
type MetricLayout struct {
	Size                                                     int
	Name, Item, Type, Sem, Units, InDom, ShortText, HelpText int
}

// The metric records of the versions.
var (
	Metric1Layout = MetricLayout{Size: Metric1Size, Name: 0, Item: 64, Type: 68, Sem: 72, Units: 76, InDom: 80, ShortText: 88, HelpText: 96}
	Metric2Layout = MetricLayout{Size: Metric2Size, Name: 0, Item: 8, Type: 12, Sem: 16, Units: 20, InDom: 24, ShortText: 32, HelpText: 40}
)

// Label flags (PM_LABEL_*) as libpcp_mmv records them in a label's flags.
const (
	labelInDom     = 1 << 2
	labelCluster   = 1 << 3
	labelItem      = 1 << 4
	labelInstances = 1 << 5
	labelOptional  = 1 << 7
)

// inNull is PM_IN_NULL, the instance of a label that is not an instance's.
const inNull = 0xffffffff

// header is the decoded fixed header.
type header struct {
	Version int32
	G1, G2  uint64
	TOCs    int32
	Flags   Flags
	Process int32
	Cluster uint32
}

func putHeader(b []byte, h header) {
	copy(b, Magic)
	binary.LittleEndian.PutUint32(b[hdrVersion:], uint32(h.Version))
	binary.LittleEndian.PutUint64(b[hdrG1:], h.G1)
	binary.LittleEndian.PutUint64(b[hdrG2:], h.G2)
	binary.LittleEndian.PutUint32(b[hdrTOCs:], uint32(h.TOCs))
	binary.LittleEndian.PutUint32(b[hdrFlags:], uint32(h.Flags))
	binary.LittleEndian.PutUint32(b[hdrProcess:], uint32(h.Process))
	binary.LittleEndian.PutUint32(b[hdrCluster:], h.Cluster)
}

func putTOC(b []byte, typ, count int32, offset uint64) {
	binary.LittleEndian.PutUint32(b[TOCType:], uint32(typ))
	binary.LittleEndian.PutUint32(b[TOCCount:], uint32(count))
	binary.LittleEndian.PutUint64(b[TOCOffset:], offset)
}

// putString copies s into a NUL-terminated slot of n bytes, cut to fit.
func putString(b []byte, s string, n int) {
	if len(s) > n-1 {
		s = s[:n-1]
	}
	copy(b[:n], s)
}
