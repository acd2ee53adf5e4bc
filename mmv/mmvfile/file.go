package mmvfile

import (
	"errors"
	"fmt"

	"github.com/gopcp/gopcp/internal/wire"
	"github.com/gopcp/gopcp/mmv"
)

// MaxCount is the most entries pmdammv takes from a section
// (MAX_MMV_COUNT): it ignores a section with more. Parse decodes such a
// section, as mmvdump prints it; the agent ignores it as pmdammv does.
const MaxCount = 10000

// ErrInFlux reports a file whose generation numbers are zero or differ:
// its writer is creating or replacing it, so a reader tries again later.
var ErrInFlux = errors.New("mmv file in flux")

// ErrFormat is wrapped by every error Parse gives for a malformed file.
var ErrFormat = errors.New("malformed mmv file")

// ErrTooLarge is wrapped by the errors of a file that claims more than the
// reader's Limits allow.
var ErrTooLarge = errors.New("mmv file beyond the reader's limits")

// Limits bound what Parse decodes. The file's size does not bound it on
// its own: a sparse file of a few bytes on disk may be terabytes long and
// claim billions of records, each of which would cost a decoded record.
// Every limit is checked before anything is allocated for what it bounds.
// A zero field takes DefaultLimits' value.
type Limits struct {
	TOC     int // the most table of contents entries
	Section int // the most records of one section (and instances of one domain)
	Total   int // the most records of all sections together
}

// DefaultLimits are generous for files libpcp_mmv or package mmv write
// (at most 6 TOC entries, 1023 metrics; PCP's largest QA file has 11,420
// values) and bound a parse to some tens of megabytes.
var DefaultLimits = Limits{TOC: 64, Section: 1 << 17, Total: 1 << 19}

// orDefault fills the zero fields of l from DefaultLimits.
func (l Limits) orDefault() Limits {
	if l.TOC <= 0 {
		l.TOC = DefaultLimits.TOC
	}
	if l.Section <= 0 {
		l.Section = DefaultLimits.Section
	}
	if l.Total <= 0 {
		l.Total = DefaultLimits.Total
	}
	return l
}

func tooLarge(msg string) error { return fmt.Errorf("%w: %s", ErrTooLarge, msg) }

// File is a decoded MMV file. Offsets are byte offsets in the file, as
// the file's records refer to one another by them.
type File struct {
	B       []byte // the file's bytes, normally its mapping; not copied
	Version int32
	G1, G2  uint64
	Flags   mmv.Flags
	Process int32
	Cluster uint32
	TOC     []TOC

	InDoms    []InDom
	Instances []Instance
	Metrics   []Metric
	Values    []Value
	Strings   []String
	Labels    []Label

	lim Limits // those Parse was given, for InstancesAt
}

// TOC is a table of contents entry.
type TOC struct {
	Type   int32
	Count  int32
	Offset uint64
}

// InDom is an instance domain record.
type InDom struct {
	Offset    int
	Serial    uint32
	Count     uint32
	First     uint64 // offset of its first instance
	ShortText uint64 // string offsets, 0 for none
	HelpText  uint64
}

// Instance is an instance record. Version 1 holds its name inline; later
// versions hold the offset of a string.
type Instance struct {
	Offset   int
	InDom    uint64 // offset of its instance domain
	Pad      uint32
	Internal int32
	External string // the name, from either form
	NameAt   uint64 // the string offset of the name (versions 2, 3)
}

// Metric is a metric record of any version.
type Metric struct {
	Offset    int
	Name      string
	NameAt    uint64 // the string offset of the name (versions 2, 3)
	Item      uint32
	Type      mmv.Type
	Sem       mmv.Semantics
	Units     uint32 // pmUnits as the file packs it
	InDom     uint32 // serial, 0 or PM_INDOM_NULL for none
	Pad       uint32
	ShortText uint64
	HelpText  uint64
}

// Value is a value record; its bits are read with File.Value.
type Value struct {
	Offset   int
	Metric   uint64 // offset of its metric
	Instance uint64 // offset of its instance, 0 for none
}

// String is a string-table slot.
type String struct {
	Offset  int
	Payload string
}

// Label is a label record (version 3).
type Label struct {
	Offset   int
	Flags    uint32
	Identity uint32
	Internal int32
	Payload  string
}

func formatError(msg string) error { return fmt.Errorf("%w: %s", ErrFormat, msg) }

// wireError makes the decoder's failures wrap ErrFormat.
func wireError(_ int32, off int, msg string) error {
	return fmt.Errorf("%w: at byte %d: %s", ErrFormat, off, msg)
}

// Parse decodes b. It refuses, as pmdammv does, a file shorter than its
// header, with the wrong magic, a version other than 1 to 3, fewer than
// two TOC entries or a TOC past the end (ErrFormat), and one whose
// generation numbers are zero or differ (ErrInFlux); and it also refuses
// a file with a section, or a record's string or instances, outside it,
// and one claiming more TOC entries or records than lim allows
// (ErrTooLarge), before allocating anything for them.
func Parse(b []byte, lim Limits) (*File, error) {
	lim = lim.orDefault()
	d := &wire.Decoder{B: b, Little: true, NewError: wireError}
	if len(b) < mmv.HeaderSize {
		return nil, formatError(fmt.Sprintf("%d bytes, shorter than a header", len(b)))
	}
	if string(d.Bytes(4, "magic")) != mmv.Magic {
		return nil, formatError("bad magic")
	}
	f := &File{B: b, lim: lim}
	f.Version = d.I32("version")
	f.G1 = d.U64("generation 1")
	f.G2 = d.U64("generation 2")
	tocs := d.I32("tocs")
	f.Flags = mmv.Flags(d.U32("flags"))
	f.Process = d.I32("process")
	f.Cluster = d.U32("cluster")
	if f.Version < mmv.Version1 || f.Version > mmv.Version3 {
		return nil, formatError(fmt.Sprintf("version %d", f.Version))
	}
	if f.G1 == 0 || f.G1 != f.G2 {
		return nil, ErrInFlux
	}
	if tocs < 2 {
		return nil, formatError(fmt.Sprintf("%d TOC entries", tocs))
	}
	if !d.Fits(mmv.HeaderSize, int64(tocs), mmv.TOCSize, "TOC") {
		return nil, d.Err
	}
	if int(tocs) > lim.TOC {
		return nil, tooLarge(fmt.Sprintf("%d TOC entries, more than %d", tocs, lim.TOC))
	}
	f.TOC = make([]TOC, tocs)
	for i := range f.TOC {
		f.TOC[i] = TOC{Type: d.I32("toc type"), Count: d.I32("toc count"), Offset: d.U64("toc offset")}
	}
	// Sections of a sound file do not overlap, so together they fit in
	// the file; checking that bounds the records decoded by the file's
	// size even when many TOC entries name one section.
	total, records := int64(0), 0
	byType := map[int32]int{}
	for _, t := range f.TOC {
		if t.Count > 0 && f.recordSize(t.Type) > 0 {
			if int(t.Count) > lim.Section {
				return nil, tooLarge(fmt.Sprintf("section %d of %d records, more than %d", t.Type, t.Count, lim.Section))
			}
			total += int64(t.Count) * int64(f.recordSize(t.Type))
			records += int(t.Count)
			byType[t.Type] += int(t.Count)
		}
	}
	if records > lim.Total {
		return nil, tooLarge(fmt.Sprintf("%d records in all, more than %d", records, lim.Total))
	}
	if total > int64(len(b)) {
		return nil, formatError(fmt.Sprintf("sections of %d bytes in all in a file of %d", total, len(b)))
	}
	// Each kind of record gets its storage once, at its bounded size.
	f.InDoms = make([]InDom, 0, byType[mmv.TOCInDoms])
	f.Instances = make([]Instance, 0, byType[mmv.TOCInstances])
	f.Metrics = make([]Metric, 0, byType[mmv.TOCMetrics])
	f.Values = make([]Value, 0, byType[mmv.TOCValues])
	f.Strings = make([]String, 0, byType[mmv.TOCStrings])
	f.Labels = make([]Label, 0, byType[mmv.TOCLabels])
	for _, t := range f.TOC {
		f.section(d, t)
	}
	if d.Err != nil {
		return nil, d.Err
	}
	return f, nil
}

// recordSize is the size of a section's records in this file's version,
// 0 for a section type the format does not have.
func (f *File) recordSize(typ int32) int {
	if f.Version == mmv.Version1 {
		switch typ {
		case mmv.TOCInstances:
			return mmv.Instance1Size
		case mmv.TOCMetrics:
			return mmv.Metric1Size
		}
	}
	switch typ {
	case mmv.TOCInDoms:
		return mmv.InDomSize
	case mmv.TOCInstances:
		return mmv.Instance2Size
	case mmv.TOCMetrics:
		return mmv.Metric2Size
	case mmv.TOCValues:
		return mmv.ValueSize
	case mmv.TOCStrings:
		return mmv.StringSize
	case mmv.TOCLabels:
		return mmv.LabelSize
	}
	return 0
}

// section decodes the records of one TOC entry.
func (f *File) section(d *wire.Decoder, t TOC) {
	size := f.recordSize(t.Type)
	if size == 0 {
		return // pmdammv ignores unknown section types
	}
	if t.Count < 0 {
		d.Fail(0, fmt.Sprintf("section %d has %d entries", t.Type, t.Count))
		return
	}
	if t.Offset > uint64(len(d.B)) || !d.Fits(int64(t.Offset), int64(t.Count), size, fmt.Sprintf("section %d", t.Type)) {
		d.Fail(0, fmt.Sprintf("section %d: %d entries at offset %d outside %d bytes", t.Type, t.Count, t.Offset, len(d.B)))
		return
	}
	for i := range int(t.Count) {
		off := int(t.Offset) + i*size
		d.At(off, "record")
		switch t.Type {
		case mmv.TOCInDoms:
			f.InDoms = append(f.InDoms, InDom{Offset: off, Serial: d.U32("serial"), Count: d.U32("count"),
				First: d.U64("first instance"), ShortText: d.U64("shorttext"), HelpText: d.U64("helptext")})
		case mmv.TOCInstances:
			f.Instances = append(f.Instances, f.instance(d, off))
		case mmv.TOCMetrics:
			f.Metrics = append(f.Metrics, f.metric(d, off))
		case mmv.TOCValues:
			d.Skip(mmv.ValueMetric, "value")
			f.Values = append(f.Values, Value{Offset: off, Metric: d.U64("metric"), Instance: d.U64("instance")})
		case mmv.TOCStrings:
			// A slot's last byte is ignored, as pmdammv ends a copied slot.
			if b := d.Bytes(mmv.StringSize, "string"); b != nil {
				f.Strings = append(f.Strings, String{Offset: off, Payload: cstring(b[:mmv.StringSize-1])})
			}
		case mmv.TOCLabels:
			l := Label{Offset: off, Flags: d.U32("label flags"), Identity: d.U32("identity"), Internal: d.I32("internal")}
			l.Payload = cstring(d.Bytes(mmv.LabelMax, "payload"))
			f.Labels = append(f.Labels, l)
		}
	}
}

func (f *File) instance(d *wire.Decoder, off int) Instance {
	in := Instance{Offset: off, InDom: d.U64("instance indom"), Pad: d.U32("pad"), Internal: d.I32("internal")}
	if f.Version == mmv.Version1 {
		in.External = cstring(d.Bytes(mmv.NameMax, "external"))
		return in
	}
	in.NameAt = d.U64("external")
	in.External = f.stringAt(d, in.NameAt, "instance name")
	return in
}

func (f *File) metric(d *wire.Decoder, off int) Metric {
	var m Metric
	m.Offset = off
	if f.Version == mmv.Version1 {
		m.Name = cstring(d.Bytes(mmv.NameMax, "name"))
	} else {
		m.NameAt = d.U64("name")
		m.Name = f.stringAt(d, m.NameAt, "metric name")
	}
	m.Item = d.U32("item")
	m.Type = mmv.Type(d.I32("type"))
	m.Sem = mmv.Semantics(d.I32("semantics"))
	m.Units = d.U32("units")
	m.InDom = d.U32("indom")
	m.Pad = d.U32("pad")
	m.ShortText = d.U64("shorttext")
	m.HelpText = d.U64("helptext")
	return m
}

// stringAt reads a string slot for a record, failing d when the slot is
// not wholly inside the file.
func (f *File) stringAt(d *wire.Decoder, off uint64, what string) string {
	s, err := f.String(off)
	if err != nil && d.Err == nil {
		d.Fail(d.Off, fmt.Sprintf("%s: %v", what, err))
	}
	return s
}

// String returns the string in the slot at off: up to its NUL, at most
// 255 bytes, as pmdammv copies a slot and ends it. The slot must lie
// wholly inside the file.
func (f *File) String(off uint64) (string, error) {
	if off > uint64(len(f.B)) || uint64(len(f.B))-off < mmv.StringSize {
		return "", formatError(fmt.Sprintf("string at %d outside %d bytes", off, len(f.B)))
	}
	return cstring(f.B[off : off+mmv.StringSize-1]), nil
}

// Value returns the 8 bytes of a value's atom and its extra field, read
// now from the file's bytes.
func (f *File) Value(v Value) (atom uint64, extra int64) {
	b := f.B[v.Offset : v.Offset+mmv.ValueSize]
	return le64(b[mmv.ValueAtom:]), int64(le64(b[mmv.ValueExtra:]))
}

// cstring is b up to its first NUL.
func cstring(b []byte) string {
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}

func le64(b []byte) uint64 {
	_ = b[7]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// InstancesAt reads the n instance records at off, as pmdammv reads an
// instance domain's instances (from the domain's own offset, not from the
// instances section). They must lie inside the file, names included, and
// be no more than the Limits' Section (ErrTooLarge).
func (f *File) InstancesAt(off uint64, n uint32) ([]Instance, error) {
	if int64(n) > int64(f.lim.orDefault().Section) {
		return nil, tooLarge(fmt.Sprintf("%d instances, more than %d", n, f.lim.orDefault().Section))
	}
	size := mmv.Instance2Size
	if f.Version == mmv.Version1 {
		size = mmv.Instance1Size
	}
	d := &wire.Decoder{B: f.B, Little: true, NewError: wireError}
	if off > uint64(len(f.B)) || !d.Fits(int64(off), int64(n), size, "instances") {
		return nil, formatError(fmt.Sprintf("%d instances at %d outside %d bytes", n, off, len(f.B)))
	}
	ins := make([]Instance, 0, n)
	for i := range int(n) {
		at := int(off) + i*size
		d.At(at, "instance")
		ins = append(ins, f.instance(d, at))
	}
	if d.Err != nil {
		return nil, d.Err
	}
	return ins, nil
}

// InternalAt is the internal number of the instance record at off, false
// when the record is not inside the file.
func (f *File) InternalAt(off uint64) (int32, bool) {
	if off > uint64(len(f.B)) || uint64(len(f.B))-off < mmv.InstanceInternal+4 {
		return 0, false
	}
	b := f.B[off+mmv.InstanceInternal:]
	return int32(uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24), true
}

// Generations reads the two generation numbers now, as a reader checks
// whether the file it holds has been replaced.
func (f *File) Generations() (g1, g2 uint64) {
	return le64(f.B[8:]), le64(f.B[16:])
}
