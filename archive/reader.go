package archive

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/gopcp/gopcp/internal/wire"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// Mode is the direction a Reader moves in, PM_MODE_FORW or PM_MODE_BACK.
type Mode int

// The directions, with PCP's numbers.
const (
	Forward  Mode = 2 // PM_MODE_FORW
	Backward Mode = 3 // PM_MODE_BACK
)

// Reader reads an archive's data records in time order, forwards or
// backwards, as libpcp's pmFetchArchive does: from a time (the origin),
// skipping records out of order, across volumes, with <mark> records
// (a Result with no value sets) delivered as they are. A Reader is for
// one goroutine; open several for concurrent reading.
type Reader struct {
	a        *Archive
	features bool

	cur  *volume // the open volume, nil before any
	pos  int     // position in cur
	seen map[int]bool

	savedVol int
	savedPos int
	serial   bool
	origin   pcp.Timestamp
	mode     Mode

	buf []byte // a record with its decoding prefix

	// keep, when set, picks the value sets Fetch delivers (see Select);
	// sets is the last record's count of value sets on disk
	keep func(pcp.PMID) bool
	sets int32
	// ids, when not nil, is the sorted list keep accepts (SelectPMIDs),
	// in idBuf's storage; keepID is listed as a func, made once
	ids, idBuf []pcp.PMID
	keepID     func(pcp.PMID) bool
	// cache holds records read more than once with a Select
	cache recordCache
	// shape is the layout of the last record decoded with SelectPMIDs;
	// shapeRun counts the records decoded in a row, since the last
	// placing, for the list in shapeIDs (decode)
	shape    pdu.Shape
	shapeIDs []pcp.PMID
	shapeRun int
	// yield has the reading goroutine yield now and then
	// (reader_yield.go)
	yield yielder
}

// NewReader starts a reader at the archive's start, going forwards.
func (a *Archive) NewReader() *Reader {
	r := &Reader{a: a, features: true, seen: map[int]bool{}, mode: Forward, origin: a.Label.Start, savedVol: a.MinVol}
	if v, err := a.openVolume(a.MinVol, false); err == nil {
		r.cur = v
		r.pos = v.hdr
		r.seen[v.num] = true
	}
	r.savedPos = labelSize(a.Version())
	return r
}

// SetMode positions the reader at t, to read in direction m from there
// on, as pmSetMode does: the next Fetch returns the first record at or
// after t (Forward) or at or before t (Backward).
func (r *Reader) SetMode(m Mode, t pcp.Timestamp) {
	r.mode, r.origin, r.serial = m, t, false
	r.shapeRun = 0
}

// Origin is the time of the last record fetched, or the time SetMode set.
func (r *Reader) Origin() pcp.Timestamp { return r.origin }

// Position reports the volume and byte offset the reader will read next.
func (r *Reader) Position() (vol int, off int64) { return r.savedVol, int64(r.savedPos) }

// changeVol makes vol the open volume, __pmLogChangeVol.
func (r *Reader) changeVol(vol int) error {
	if r.cur != nil && r.cur.num == vol {
		return nil
	}
	if !r.a.vols[vol] {
		return fmt.Errorf("volume %d: %w", vol, pcp.Error(-2))
	}
	v, err := r.a.openVolume(vol, r.features && !r.seen[vol])
	if err != nil {
		return err
	}
	r.seen[vol] = true
	r.cur.close()
	r.cur = v
	r.pos = v.hdr
	return nil
}

// Close releases the reader's open file.
func (r *Reader) Close() error {
	r.cur.close()
	r.cur = nil
	return nil
}

// Fetch reads the next record in the reader's direction into res,
// reusing res's storage; at the end it returns pcp.ErrEOL. A damaged
// record gives an *Error wrapping pcp.ErrLogRec with the volume and
// offset; the records before it have all been returned.
func (r *Reader) Fetch(res *pcp.Result) error {
	if err := r.changeVol(r.savedVol); err != nil {
		return err
	}
	r.pos = r.savedPos
	for {
		if !r.serial {
			if err := r.setTime(); err != nil {
				return err
			}
			back := Backward
			if r.mode == Backward {
				back = Forward
			}
			for r.read(back, res, false) == nil {
				d := res.Timestamp.Sub(r.origin)
				if (r.mode == Forward && d < 0) || (r.mode == Backward && d > 0) || d == 0 {
					break
				}
			}
			r.serial = true
		}
		if err := r.read(r.mode, res, false); err != nil {
			return err
		}
		d := res.Timestamp.Sub(r.origin)
		if (d < 0 && r.mode == Forward) || (d > 0 && r.mode == Backward) {
			continue
		}
		break
	}
	r.origin = res.Timestamp
	if r.cur != nil {
		r.savedVol, r.savedPos = r.cur.num, r.pos
	}
	return nil
}

// read is __pmLogRead: the next record from the current position in
// direction m, moving to the next (or previous) volume at the end of one.
// paranoid adds the checks libpcp makes when it looks for the end. A nil
// res (backwards: setTime's step) steps over the record undecoded.
func (r *Reader) read(m Mode, res *pcp.Result, paranoid bool) error {
	r.yield.tick()
	if r.cur == nil {
		return pcp.ErrEOL
	}
	if m == Forward && r.cur.wantMap() {
		return r.readMapped(m, res, paranoid)
	}
	return r.readRecord(m, res, paranoid)
}

// readRecord is read's work.
func (r *Reader) readRecord(m Mode, res *pcp.Result, paranoid bool) error {
	if m == Backward {
		for r.pos <= r.cur.hdr {
			vol := r.cur.num - 1
			for ; vol >= r.a.MinVol; vol-- {
				if r.changeVol(vol) == nil {
					r.pos = r.cur.size
					break
				}
			}
			if vol < r.a.MinVol {
				return pcp.ErrEOL
			}
		}
		r.pos -= 4
	}
	for {
		if r.pos < 0 || r.cur.size-r.pos < 4 {
			if m == Backward && r.pos >= 0 && !paranoid {
				// a place past the volume's end (a damaged index
				// entry's): libpcp's read finds the end of the file
				// and goes on into the next volume
				return r.backPastEnd(res, r.pos+4)
			}
			if m == Backward {
				return pcp.ErrEOL
			}
			next := r.cur.num + 1
			for ; next <= r.a.MaxVol; next++ {
				if r.changeVol(next) == nil {
					break
				}
			}
			if next > r.a.MaxVol {
				return pcp.ErrEOL
			}
			continue
		}
		break
	}
	v := r.cur
	offset := r.pos
	if m == Backward {
		offset += 4
	}
	bad := func(at int, msg string) error {
		return &Error{File: r.a.VolumePath(v.num), Offset: int64(at), Msg: msg, Code: pcp.ErrLogRec}
	}
	word := v.at(r.pos, 4)
	if word == nil {
		// a damaged .xz block, or a read that failed
		r.pos = offset
		return bad(offset, "record length cannot be read")
	}
	head := int32(binary.BigEndian.Uint32(word))
	rlen := int(head) - 8
	if rlen < 0 || (m == Backward && rlen > offset) {
		r.pos = afterBadLength(m, offset)
		return bad(offset, fmt.Sprintf("record length %d", head))
	}
	var start int // of the record's header word
	if m == Backward {
		start = offset - 8 - rlen
		if start < 0 {
			r.pos = offset
			return bad(offset, fmt.Sprintf("record length %d", head))
		}
	} else {
		start = offset
		if rlen > v.size-start-4 {
			r.pos = offset
			return bad(start, fmt.Sprintf("record of %d bytes cut short at %d", head, v.size))
		}
		if v.size-start-4-rlen < 4 {
			r.pos = offset
			return bad(start, "record trailer missing")
		}
	}
	rec, frame := v.record(start, rlen)
	if rec == nil {
		r.pos = offset
		return bad(start, "record cannot be read")
	}
	other := int32(binary.BigEndian.Uint32(rec[4+rlen:]))
	if m == Backward {
		other = int32(binary.BigEndian.Uint32(rec))
	}
	if other != head {
		r.pos = afterBadTrailer(m, start, rlen)
		return bad(start, fmt.Sprintf("record length %d does not match the trailer %d", head, other))
	}
	body := rec[4 : 4+rlen]
	if paranoid && !paranoidOK(body, r.a.Version()) {
		r.pos = afterBadTrailer(m, start, rlen)
		return bad(start, "record fails the end-of-archive checks")
	}
	if res == nil {
		// a step over the record: decoding leaves the reader at the
		// same place whether the body decodes or not
		r.pos = afterBadBody(m, start, rlen)
		return nil
	}
	if frame == nil {
		r.buf = append(r.buf[:0], make([]byte, pdu.LogRecordPrefix)...)
		r.buf = append(r.buf, body...)
		frame = r.buf
	}
	if err := r.decodeCached(res, frame, v.num, start); err != nil {
		r.pos = afterBadBody(m, start, rlen)
		var de *pdu.DecodeError
		if errors.As(err, &de) {
			return bad(start+4+de.Offset-pdu.LogRecordPrefix, de.Msg)
		}
		return bad(start, err.Error())
	}
	if m == Backward {
		r.pos = start
	} else {
		r.pos = start + 8 + rlen
	}
	return nil
}

// paranoidOK is the size check libpcp adds when reading for the end of an
// archive: a record must hold its fixed fields, and a <mark> nothing more.
func paranoidOK(body []byte, version int) bool {
	d := wire.New(body, false)
	readStamp(d, version == Version2)
	n := d.I32("value set count")
	return d.Err == nil && (n >= 1 || d.Remaining() == 0)
}
