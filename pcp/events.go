package pcp

import (
	"encoding/binary"
	"fmt"
	"time"
)

// EventRecord is one record of an event array value unpacked as
// pmUnpackEventRecords does: its timestamp, and its parameters as value
// sets of one value each, led by the anonymous event.flags metric when the
// record has flags (and then event.missed for a record of missed events).
type EventRecord struct {
	Time   time.Time
	Params []ValueSet
}

// The anonymous metrics libpcp defines in every context for the flags
// and missed-record counts of event records, event.flags and event.missed.
// They are constants, not NewPMID's results, so that no program pays for
// them at start-up.
const (
	PMIDEventFlags  PMID = 511<<(pmidClusterBits+pmidItemBits) | 0<<pmidItemBits | 1
	PMIDEventMissed PMID = 511<<(pmidClusterBits+pmidItemBits) | 0<<pmidItemBits | 2
)

// errEventArray is an event array whose records run past its end, which
// libpcp's checks report as PM_ERR_TOOSMALL.
var errEventArray error = eventArrayError{}

// eventArrayError is errEventArray's type: a package-level fmt.Errorf
// would run fmt at every program's start-up.
type eventArrayError struct{}

func (eventArrayError) Error() string { return ErrTooSmall.Error() + ": event array is truncated" }
func (eventArrayError) Unwrap() error { return ErrTooSmall }

// eventHeader reads a record's timestamp, flags and parameter count.
func eventHeader(d []byte, highres bool) (t time.Time, flags uint32, nparams int32, size int, err error) {
	tsize := 8
	if highres {
		tsize = 16
	}
	if len(d) < tsize+8 {
		return t, 0, 0, 0, errEventArray
	}
	if highres {
		t = time.Unix(int64(binary.NativeEndian.Uint64(d)), int64(binary.NativeEndian.Uint64(d[8:])))
	} else {
		t = time.Unix(int64(int32(binary.NativeEndian.Uint32(d))), int64(int32(binary.NativeEndian.Uint32(d[4:])))*1000)
	}
	return t, binary.NativeEndian.Uint32(d[tsize:]), int32(binary.NativeEndian.Uint32(d[tsize+4:])), tsize + 8, nil
}

// paramSize is the bytes a parameter takes: its PMID, its type and length
// word and its value padded to 4 bytes.
func paramSize(d []byte) (int, error) {
	if len(d) < 8 {
		return 0, errEventArray
	}
	n := int(binary.NativeEndian.Uint32(d[4:]) & 0xffffff)
	size := 4 + (n+3)&^3
	if n < 4 || size > len(d) {
		return 0, errEventArray
	}
	return size, nil
}

// UnpackEvents unpacks an event array value's data (the value block's
// bytes after its header, in host order) as pmUnpackEventRecords or, for
// highres, pmUnpackHighResEventRecords does.
func UnpackEvents(data []byte, highres bool) ([]EventRecord, error) {
	if len(data) < 4 {
		return nil, errEventArray
	}
	n := int32(binary.NativeEndian.Uint32(data))
	d := data[4:]
	var out []EventRecord
	for r := int32(0); r < n; r++ {
		ts, flags, nparams, size, err := eventHeader(d, highres)
		if err != nil {
			return nil, err
		}
		d = d[size:]
		rec := EventRecord{Time: ts}
		count := int(nparams)
		switch {
		case flags&EventFlagMissed != 0:
			count = 2
		case flags != 0:
			count++
		}
		for p := 0; p < count; p++ {
			switch {
			case p == 0 && flags != 0:
				rec.Params = append(rec.Params, inSitu(PMIDEventFlags, int32(flags)))
				continue
			case p == 1 && flags&EventFlagMissed != 0:
				rec.Params = append(rec.Params, inSitu(PMIDEventMissed, nparams))
				continue
			}
			psize, err := paramSize(d)
			if err != nil {
				return nil, err
			}
			pmid := PMID(binary.NativeEndian.Uint32(d))
			word := binary.NativeEndian.Uint32(d[4:])
			t := Type(word >> 24)
			val := d[8 : 4+int(word&0xffffff)]
			switch t {
			case Type32, TypeU32:
				if len(val) < 4 {
					return nil, errEventArray
				}
				rec.Params = append(rec.Params, inSitu(pmid, int32(binary.NativeEndian.Uint32(val))))
			case TypeEvent, TypeHighResEvent:
				return nil, ErrType
			default:
				vs := ValueSet{PMID: pmid, NumVal: 1, ValFmt: ValDPtr,
					Values: []Value{{Inst: InstNull, Block: ValueBlock{Type: t, Data: append([]byte(nil), val...)}}}}
				rec.Params = append(rec.Params, vs)
			}
			d = d[psize:]
		}
		out = append(out, rec)
	}
	return out, nil
}

func inSitu(pmid PMID, v int32) ValueSet {
	return ValueSet{PMID: pmid, NumVal: 1, ValFmt: ValInSitu,
		Values: []Value{{Inst: InstNull, LVal: v}}}
}

// FormatStamp is pmPrintStamp's local time of day to the millisecond, or with
// highres pmPrintHighResStamp's to the nanosecond.
func FormatStamp(t time.Time, highres bool) string {
	t = t.Local()
	if highres {
		return fmt.Sprintf("%02d:%02d:%02d.%09d", t.Hour(), t.Minute(), t.Second(), t.Nanosecond())
	}
	return fmt.Sprintf("%02d:%02d:%02d.%03d", t.Hour(), t.Minute(), t.Second(), t.Nanosecond()/1e6)
}

// EventSummary is what pmPrintValue prints for an event array: the record
// count, the missed records, and the first and last timestamps.
func EventSummary(data []byte, highres bool) string {
	if len(data) < 4 {
		return "[0 event records]"
	}
	n := int32(binary.NativeEndian.Uint32(data))
	d := data[4:]
	var first, last time.Time
	missed := 0
	for r := int32(0); r < n; r++ {
		ts, flags, nparams, size, err := eventHeader(d, highres)
		if err != nil {
			break
		}
		if r == 0 {
			first = ts
		}
		last = ts
		if r == n-1 {
			break
		}
		if flags&EventFlagMissed != 0 {
			// PCP does not step over a missed record's header here, so
			// every later record reads this same header again: count them
			// all at once rather than looping up to 2^31 times on a
			// hostile record count.
			missed += int(nparams) * int((n-1)-r)
			last = ts
			break
		}
		d = d[size:]
		for p := int32(0); p < nparams; p++ {
			psize, err := paramSize(d)
			if err != nil {
				break
			}
			d = d[psize:]
		}
	}
	s := fmt.Sprintf("[%d event record", n)
	if n != 1 {
		s += "s"
	}
	if missed > 0 {
		s += fmt.Sprintf(" (%d missed)", missed)
	}
	if n > 0 {
		s += " timestamp"
		if n > 1 {
			s += "s"
		}
		s += " " + FormatStamp(first, highres)
		if n > 1 {
			s += "..." + FormatStamp(last, highres)
		}
	}
	return s + "]"
}
