package archive

import (
	"encoding/binary"
	"errors"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// backPastEnd is __pmLogRead backwards from offset, a place past the end
// of the current volume, where only a damaged temporal index entry puts
// a reader. libpcp's read of the length word there meets the end of the
// file, and it handles that as it does reading forwards: it opens the
// next volume that opens and reads on there, still in the backward
// direction, from just after that volume's label. The moves that follow
// are a backward read's, made from the wrong place: from the first
// record's length word h, it steps back over h-8 bytes (a seek to before
// the file's start fails and leaves the position) for the body, then
// back again for the trailer. The bytes so read make the first record
// only when the seek back failed and the trailer read is the length word
// itself; otherwise the words differ (PM_ERR_LOGREC). No volume after
// this one is the end (PM_ERR_EOL), the reader left where it was.
func (r *Reader) backPastEnd(res *pcp.Result, offset int) error {
	for next := r.cur.num + 1; next <= r.a.MaxVol; next++ {
		if r.changeVol(next) != nil {
			continue
		}
		v := r.cur
		bad := func(at int, msg string) error {
			return &Error{File: r.a.VolumePath(v.num), Offset: int64(at), Msg: msg, Code: pcp.ErrLogRec}
		}
		hdr := v.hdr
		word := v.at(hdr, 4)
		if word == nil {
			continue // the end again: the volume after
		}
		head := int32(binary.BigEndian.Uint32(word))
		rlen := int(head) - 8
		if rlen < 0 || rlen > offset {
			r.pos = hdr + 4
			return bad(hdr, "record length read backwards past a volume's end")
		}
		// the seek back for the body, from just past the length word
		body := hdr + 4
		if hdr-rlen >= 0 {
			body = hdr - rlen
		}
		b := v.at(body, rlen)
		if b == nil {
			r.pos = offset
			return bad(body, "record body read backwards past a volume's end")
		}
		b = append([]byte(nil), b...)
		// the seek back for the trailer, from the end of the body
		trail := body - 4
		if trail < 0 {
			trail = body + rlen
		}
		t := v.at(trail, 4)
		if t == nil {
			r.pos = offset
			return bad(trail, "record trailer read backwards past a volume's end")
		}
		if int32(binary.BigEndian.Uint32(t)) != head {
			r.pos = trail + 4
			return bad(trail, "record length does not match the trailer, read backwards past a volume's end")
		}
		r.pos = trail
		if res == nil {
			return nil // a step over it, which decoding does not move
		}
		r.buf = append(r.buf[:0], make([]byte, pdu.LogRecordPrefix)...)
		r.buf = append(r.buf, b...)
		if err := r.decode(res, r.buf); err != nil {
			var de *pdu.DecodeError
			if errors.As(err, &de) {
				return bad(body+de.Offset-pdu.LogRecordPrefix, de.Msg)
			}
			return bad(body, err.Error())
		}
		return nil
	}
	r.pos = offset
	return pcp.ErrEOL
}
