package pmda

import (
	"encoding/binary"
	"fmt"
	"math"
	"time"

	"github.com/gopcp/gopcp/pcp"
)

// EventArray builds the value of an event metric (pcp.TypeEvent, or
// pcp.TypeHighResEvent for a high resolution array): a packed array of
// event records, each with a timestamp, flags and parameters, as
// pmdaEventNewArray and the functions that go with it build one. Records
// and parameters are added in order; Value gives the packed array to
// return from a fetch, and Reset empties it for the next fetch.
//
// The packing is PCP's, in host byte order: the record count, then per
// record its timestamp (32-bit seconds and microseconds, or 64-bit seconds
// and nanoseconds for high resolution), flags and parameter count, then
// each parameter's PMID, a word holding its type and length, and its value
// padded to four bytes. An EventArray is not safe for concurrent use.
type EventArray struct {
	highres bool
	buf     []byte // the value block's data: count, then records
	rec     int    // offset of the last record, -1 before the first
}

// NewEventArray returns an empty array of records with microsecond
// timestamps (pcp.TypeEvent).
func NewEventArray() *EventArray { return &EventArray{buf: make([]byte, 4), rec: -1} }

// NewHighResEventArray returns an empty array of records with nanosecond
// timestamps (pcp.TypeHighResEvent).
func NewHighResEventArray() *EventArray {
	return &EventArray{highres: true, buf: make([]byte, 4), rec: -1}
}

// Reset empties the array, keeping its storage.
func (e *EventArray) Reset() {
	e.buf = e.buf[:4]
	clear(e.buf)
	e.rec = -1
}

// Records is the number of records in the array.
func (e *EventArray) Records() int { return int(binary.NativeEndian.Uint32(e.buf)) }

func (e *EventArray) addHeader(t time.Time, flags uint32, nparams int32) {
	e.rec = len(e.buf)
	if e.highres {
		e.buf = binary.NativeEndian.AppendUint64(e.buf, uint64(t.Unix()))
		e.buf = binary.NativeEndian.AppendUint64(e.buf, uint64(t.Nanosecond()))
	} else {
		// PCP keeps 32-bit seconds and microseconds here.
		e.buf = binary.NativeEndian.AppendUint32(e.buf, uint32(int32(t.Unix())))
		e.buf = binary.NativeEndian.AppendUint32(e.buf, uint32(t.Nanosecond()/1000))
	}
	e.buf = binary.NativeEndian.AppendUint32(e.buf, flags)
	e.buf = binary.NativeEndian.AppendUint32(e.buf, uint32(nparams))
	binary.NativeEndian.PutUint32(e.buf, binary.NativeEndian.Uint32(e.buf)+1)
}

// AddRecord starts a record at t with flags (pcp.EventFlagPoint and so
// on). A record of missed events is added with AddMissedRecord instead:
// flags holding pcp.EventFlagMissed are refused with pcp.ErrConv, as PCP
// refuses them.
func (e *EventArray) AddRecord(t time.Time, flags uint32) error {
	if flags&pcp.EventFlagMissed != 0 {
		return pcp.ErrConv
	}
	e.addHeader(t, flags, 0)
	return nil
}

// AddMissedRecord adds a record at t saying that missed records were
// lost. It has no parameters.
func (e *EventArray) AddMissedRecord(t time.Time, missed int32) error {
	e.addHeader(t, pcp.EventFlagMissed, missed)
	return nil
}

// AddParam adds a parameter to the last record: the value of metric pmid,
// of type t, read from the matching field of a. Types other than the
// numeric ones, strings and aggregates are pcp.ErrType; a parameter before
// any record, or after a record of missed events, is an error wrapping
// pcp.ErrConv.
func (e *EventArray) AddParam(pmid pcp.PMID, t pcp.Type, a *pcp.Atom) error {
	if e.rec < 0 {
		return fmt.Errorf("pmda: event parameter before any record: %w", pcp.ErrConv)
	}
	tsize := 8
	if e.highres {
		tsize = 16
	}
	if binary.NativeEndian.Uint32(e.buf[e.rec+tsize:])&pcp.EventFlagMissed != 0 {
		return fmt.Errorf("pmda: event parameter in a record of missed events: %w", pcp.ErrConv)
	}
	var val []byte
	var scratch [8]byte
	switch t {
	case pcp.Type32:
		val = binary.NativeEndian.AppendUint32(scratch[:0], uint32(a.L))
	case pcp.TypeU32:
		val = binary.NativeEndian.AppendUint32(scratch[:0], a.UL)
	case pcp.Type64:
		val = binary.NativeEndian.AppendUint64(scratch[:0], uint64(a.LL))
	case pcp.TypeU64:
		val = binary.NativeEndian.AppendUint64(scratch[:0], a.ULL)
	case pcp.TypeFloat:
		val = binary.NativeEndian.AppendUint32(scratch[:0], math.Float32bits(a.F))
	case pcp.TypeDouble:
		val = binary.NativeEndian.AppendUint64(scratch[:0], math.Float64bits(a.D))
	case pcp.TypeString:
		val = []byte(a.CP)
	case pcp.TypeAggregate:
		if a.VBP == nil {
			return pcp.ErrValue
		}
		val = a.VBP.Data
	default:
		return pcp.ErrType
	}
	n := pcp.ValueHeaderSize + len(val)
	if n >= 1<<24 {
		return pcp.ErrTooBig
	}
	e.buf = binary.NativeEndian.AppendUint32(e.buf, uint32(pmid))
	e.buf = binary.NativeEndian.AppendUint32(e.buf, uint32(t)<<24|uint32(n))
	e.buf = append(e.buf, val...)
	for len(e.buf)%4 != 0 {
		e.buf = append(e.buf, 0)
	}
	np := e.rec + tsize + 4
	binary.NativeEndian.PutUint32(e.buf[np:], binary.NativeEndian.Uint32(e.buf[np:])+1)
	return nil
}

// Value is the packed array as a value block for a fetch. The block
// shares the array's storage: it is valid until the next change.
func (e *EventArray) Value() *pcp.ValueBlock {
	t := pcp.TypeEvent
	if e.highres {
		t = pcp.TypeHighResEvent
	}
	return &pcp.ValueBlock{Type: t, Data: e.buf}
}
