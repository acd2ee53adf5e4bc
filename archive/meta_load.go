package archive

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"

	"github.com/gopcp/gopcp/internal/wire"
	"github.com/gopcp/gopcp/pcp"
)

// The metadata file is read through wire's Decoder over the whole file,
// so that every offset a decoder reports is the file's: an error names
// the file offset where a record breaks, and its message the record and
// where it starts.

// metaError is the wire.Decoder hook of the metadata reader: a failure is
// pcp.ErrLogRec at the file offset where decoding stopped.
func metaError(_ int32, off int, msg string) error { return errLogRec(int64(off), msg) }

// metaDecoder reads b (a whole metadata file) from off, big-endian.
func metaDecoder(b []byte, off int) wire.Decoder {
	return wire.Decoder{B: b, Off: off, NewError: metaError}
}

// inRecord prefixes the message of err, an *Error, with the record that
// broke and the offset it starts at.
func inRecord(err error, htype int32, start int) error {
	var e *Error
	if errors.As(err, &e) {
		e.Msg = fmt.Sprintf("%s record at %d: %s", recordKind(htype), start, e.Msg)
	}
	return err
}

func recordKind(htype int32) string {
	switch htype {
	case TypeDesc:
		return "descriptor"
	case TypeInDom, TypeInDomDelta, TypeInDomV2:
		return "instance domain"
	case TypeLabel, TypeLabelV2:
		return "label"
	case TypeText:
		return "help text"
	}
	return "metadata"
}

// readStamp reads a record's timestamp: a version 3 timestamp (64-bit
// seconds, nanoseconds) unless v2, then a version 2 timeval (32-bit
// seconds, microseconds). libpcp stores a version 3 timestamp's seconds
// as two big-endian words, the low half first (its swapping of the halves
// on a little-endian host comes out that way), so they are read that way.
func readStamp(d *wire.Decoder, v2 bool) pcp.Timestamp {
	if v2 {
		sec := d.I32("timestamp seconds")
		usec := d.I32("timestamp microseconds")
		return pcp.Timestamp{Sec: int64(sec), Nsec: usec * 1000}
	}
	lo := d.U32("timestamp seconds")
	hi := d.U32("timestamp seconds")
	return pcp.Timestamp{Sec: int64(uint64(hi)<<32 | uint64(lo)), Nsec: d.I32("timestamp nanoseconds")}
}

// loadMeta parses a whole metadata file (label included).
func loadMeta(b []byte, version int) (*Meta, error) {
	return loadMetaFrom(newMetaStream(bytes.NewReader(b), len(b)), version)
}

// loadMetaFrom parses a metadata file read through s (label included).
func loadMetaFrom(s *metaStream, version int) (*Meta, error) {
	m := &Meta{names: newNameTree()}
	d := s.decoder()
	err := m.load(s, &d, version)
	if err == nil {
		err = s.err
	}
	m.checkDupLabels()
	if err == nil && m.nDesc == 0 {
		err = errLogRec(int64(s.end(&d)), "no metric descriptors")
	}
	m.resolveDeltas()
	m.last = nil
	// what the caller does next starts the monitor's 10 ms afresh
	// (reader_yield.go)
	runtime.Gosched()
	return m, err
}

// load reads the records after the label as __pmLogLoadMeta does, with
// fread's semantics on the stream.
func (m *Meta) load(s *metaStream, d *wire.Decoder, version int) error {
	s.need(d, labelSize(version))
	if d.Remaining() < labelSize(version) {
		return nil
	}
	d.Off += labelSize(version)
	// A partial header at the end of the file is its end.
	var y yielder
	for s.need(d, 8); d.Remaining() >= 8; s.need(d, 8) {
		y.tick()
		start := s.at(d.Off)
		hlen := d.I32("record length")
		htype := d.I32("record type")
		if hlen <= 0 {
			return errLogRec(int64(start), fmt.Sprintf("record length %d", hlen))
		}
		if err := m.record(s, d, start, hlen, htype); err != nil {
			return inRecord(err, htype, start)
		}
	}
	return nil
}

// record reads one record after its length and type words, and its
// trailer, unless libpcp would not read it (see TypeText).
func (m *Meta) record(s *metaStream, d *wire.Decoder, start int, hlen, htype int32) error {
	if htype != TypeDesc {
		s.need(d, int(hlen)-12)
	}
	switch htype {
	case TypeDesc:
		if err := m.loadDesc(s, d, start); err != nil {
			return err
		}
	case TypeInDom, TypeInDomDelta, TypeInDomV2:
		body := recordBody(d, hlen)
		if m.repeatedInDom(&body, htype) {
			break
		}
		raw := body
		id, indom, _ := decodeInDomAfter(&body, int(htype), m.lastOf(&raw, htype), &s.inDom)
		if body.Err != nil {
			return body.Err
		}
		if len(id.Insts) > 0 {
			sortInsts(id)
			m.addInDom(indom, id)
			m.noteInDom(&raw, htype, id)
		}
	case TypeLabel, TypeLabelV2:
		body := recordBody(d, hlen)
		lr := decodeLabelRecord(&body, int(htype))
		if body.Err != nil {
			return body.Err
		}
		m.addLabel(lr)
	case TypeText:
		body := recordBody(d, hlen)
		if d.Err != nil {
			return d.Err
		}
		at := s.at(body.Off)
		ok, typ, ident, text := decodeTextBytes(&body)
		if !ok {
			// libpcp skips such a record without reading its
			// trailer, which it then takes for the next header.
			return nil
		}
		if s.texts != nil {
			m.placeText(s.texts, int64(at), int(hlen)-12)
		} else {
			m.keepText(typ, ident, text)
		}
	default:
		return &Error{Code: pcp.ErrRecType, Offset: int64(start), Msg: fmt.Sprintf("type %d", htype)}
	}
	s.need(d, 4)
	at := s.at(d.Off)
	if check := d.I32("record trailer"); d.Err != nil || check != hlen {
		return errLogRec(int64(at), fmt.Sprintf("trailer %d does not match the length %d", check, hlen))
	}
	return d.Err
}

// recordBody moves d past the body of a record of length hlen, its
// length and type words read, and returns a decoder over that body alone
// whose offsets are still the file's. A body the file cannot hold fails
// d, and the returned decoder with it.
func recordBody(d *wire.Decoder, hlen int32) wire.Decoder {
	rlen := int(hlen) - 12
	at := d.Off
	if rlen < 0 {
		d.Fail(at, fmt.Sprintf("length %d is shorter than a record", hlen))
	} else if rlen > d.Remaining() {
		d.Fail(at, fmt.Sprintf("body of a record of %d bytes needs %d bytes, %d left", hlen, rlen, d.Remaining()))
	}
	if d.Err != nil {
		return wire.Decoder{Err: d.Err}
	}
	d.Off += rlen
	return wire.Decoder{B: d.B[:at+rlen], Off: at, NewError: d.NewError}
}

// loadDesc reads a descriptor and its names, field by field as libpcp
// does, without regard to the record's length.
func (m *Meta) loadDesc(s *metaStream, d *wire.Decoder, start int) error {
	s.need(d, 20)
	desc := pcp.Desc{
		PMID:  pcp.PMID(d.U32("PMID")),
		Type:  pcp.Type(d.I32("type")),
		InDom: pcp.InDom(d.U32("instance domain")),
		Sem:   pcp.Sem(d.I32("semantics")),
		Units: pcp.UnpackUnits(d.U32("units")),
	}
	if d.Err != nil {
		return d.Err
	}
	m.nDesc++
	if err := m.addDesc(&desc); err != nil {
		var e *Error
		if errors.As(err, &e) {
			e.Offset = int64(start)
		}
		return err
	}
	// A count below one is no names, as libpcp's loop reads it; each
	// name read takes at least its length word, so the loop ends within
	// the file whatever the count.
	s.need(d, 4)
	n := d.I32("name count")
	for i := int32(0); i < n && d.Err == nil; i++ {
		s.need(d, 4)
		l := d.I32("name length")
		if l > 0 {
			s.need(d, int(l))
		}
		name := d.Bytes(int(l), "name")
		if d.Err != nil {
			break
		}
		if j := bytes.IndexByte(name, 0); j >= 0 {
			name = name[:j]
		}
		m.names.add(desc.PMID, s.names.str(name))
	}
	return d.Err
}

// decodeInDom reads the body of an instance domain record (d over the
// body alone) of the given record type, instances in record order, and
// the count the record gives. Deleted instances of a delta record have
// Deleted set. A failure is d's error.
func decodeInDom(d *wire.Decoder, typ int) (*InDom, pcp.InDom, int32) {
	return decodeInDomAfter(d, typ, nil, nil)
}

// decodeInDomAfter is decodeInDom sharing the names of prev, the last
// full record of the instance domain, where they are the same.
func decodeInDomAfter(d *wire.Decoder, typ int, prev *InDom, sc *inDomScratch) (*InDom, pcp.InDom, int32) {
	var id InDom
	id.Stamp = readStamp(d, typ == TypeInDomV2)
	indom := pcp.InDom(d.U32("instance domain"))
	countAt := d.Off
	n := d.I32("instance count")
	if d.Err != nil || n <= 0 || !d.Room(countAt, n, 8, "instance count") {
		return &id, indom, n
	}
	delta := typ == TypeInDomDelta
	id.Insts = make([]int32, n)
	id.Names = make([]string, n)
	if delta {
		id.Delta = true
		id.Deleted = make([]bool, n)
	}
	// Identifiers, then as many name indexes into the names after them.
	// A name prev (the instance domain's last record) has for the same
	// instance is shared; the others are copied once, as one string they
	// are cut from. A string each cost an allocation and its size class's
	// rounding per instance, and a copy of every name in every record:
	// most of the metadata's memory.
	idx := *d
	idx.Off += 4 * int(n)
	names := d.B[idx.Off+4*int(n):]
	if sc == nil {
		sc = &inDomScratch{}
	}
	fresh, cuts := sc.fresh[:0], sc.cuts[:0]
	for i := range id.Insts {
		at := d.Off
		inst := d.I32("instance")
		if inst < 0 {
			d.Fail(at, fmt.Sprintf("instance %d has identifier %d", i, inst))
			break
		}
		id.Insts[i] = inst
		at = idx.Off
		x := idx.I32("name index")
		switch {
		case x >= 0 && int(x) <= len(names):
			s := names[x:]
			if j := bytes.IndexByte(s, 0); j >= 0 {
				s = s[:j]
			}
			if k, ok := prev.Find(inst); ok && prev.Names[k] == string(s) {
				id.Names[i] = prev.Names[k]
				break
			}
			cuts = append(cuts, inDomCut{i, len(fresh), len(fresh) + len(s)})
			fresh = append(fresh, s...)
		case delta && x == -1:
			id.Deleted[i] = true
		default:
			d.Fail(at, fmt.Sprintf("instance %d has name index %d, outside %d bytes of names", i, x, len(names)))
		}
		if d.Err != nil {
			break
		}
	}
	if d.Err == nil {
		d.Err = idx.Err
	}
	arena := string(fresh)
	for _, c := range cuts {
		id.Names[c.i] = arena[c.a:c.b]
	}
	sc.fresh, sc.cuts = fresh, cuts
	d.Off = len(d.B)
	return &id, indom, n
}

// decodeLabelRecord reads the body of a label record (d over the body
// alone), each set by wire.LabelSet with __pmLogLoadLabelSet's limits. A
// failure is d's error.
func decodeLabelRecord(d *wire.Decoder, typ int) *LabelRecord {
	lr := &LabelRecord{Stamp: readStamp(d, typ == TypeLabelV2)}
	lr.Type = d.U32("label type")
	lr.Ident = d.U32("label identifier")
	// a set is at least its instance, JSON length and label count
	n := d.Count(12, "label set count")
	if d.Err != nil {
		return nil
	}
	lr.Sets = make([]pcp.LabelSet, n)
	for i := range lr.Sets {
		d.LabelSet(wire.ArchiveLabels, &lr.Sets[i])
		if d.Err != nil {
			return nil
		}
	}
	return lr
}

// decodeText reads a help text record (d over the body alone): its kind,
// identifier and text. ok is false for a record libpcp skips.
func decodeText(d *wire.Decoder) (ok bool, typ, ident uint32, text string) {
	ok, typ, ident, t := decodeTextBytes(d)
	return ok, typ, ident, string(t)
}

// decodeTextBytes is decodeText with the text left in d's bytes.
func decodeTextBytes(d *wire.Decoder) (ok bool, typ, ident uint32, text []byte) {
	if d.Remaining() < 8 {
		return false, 0, 0, nil
	}
	typ = d.U32("help text kind")
	if typ&(TextOneLine|TextHelp) == 0 || typ&(TextInDom|TextPMID) == 0 {
		return false, 0, 0, nil
	}
	ident = d.U32("help text identifier")
	t := d.Bytes(d.Remaining(), "help text")
	if j := bytes.IndexByte(t, 0); j >= 0 {
		t = t[:j]
	}
	return true, typ, ident, t
}

// inDomScratch is decodeInDomAfter's working storage, which a loader
// keeps from record to record: made afresh for each record, the names'
// bytes and places were a fifth of what loading 20180102's metadata
// allocated (330 KB of 1.6 MB), all of it garbage once the names are
// cut from their one string.
type inDomScratch struct {
	fresh []byte
	cuts  []inDomCut
}

// inDomCut is where instance i's name lies in the record's new names.
type inDomCut struct{ i, a, b int }
