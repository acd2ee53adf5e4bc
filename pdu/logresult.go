package pdu

import (
	"encoding/binary"

	"github.com/gopcp/gopcp/pcp"
)

// LogRecordPrefix is the room DecodeLogRecordInto wants before an archive
// data record's body: PCP reads each record behind a fake PDU header, and
// the offsets of value blocks inside the record count from the start of
// that header, so the body must sit at this offset in the buffer.
const LogRecordPrefix = HeaderSize

// DecodeLogRecordInto decodes the body of an archive data record (what
// lies between the record's leading and trailing length words) into r,
// reusing r's storage as DecodeResultInto does. buf holds LogRecordPrefix
// bytes of any content and then the body. A version 2 record starts with
// a timestamp of 32-bit seconds and microseconds, a version 3 record
// (v3 true) with 64-bit seconds and 32-bit nanoseconds; then come the
// count of value sets, the sets and their blocks as in a RESULT PDU.
//
// As in PCP the timestamp is taken as it is, unchecked. A record whose
// value sets or blocks do not follow the layout gives a *DecodeError
// (wrapping pcp.ErrIPC); r then holds what was decoded before the fault.
func DecodeLogRecordInto(r *pcp.Result, buf []byte, v3 bool) error {
	d := bodyDecoder(buf, TypeResult)
	if len(buf) < HeaderSize {
		d.Fail(0, "record shorter than its prefix")
		return d.Err
	}
	r.Timestamp = logStamp(&d, v3)
	at := d.Off
	n := d.I32("numpmid")
	if d.Err != nil {
		r.Sets = r.Sets[:0]
		return d.Err
	}
	decodeValueSetsN(&d, r, at, n)
	return d.Err
}

// AppendLogRecord encodes r as the body of an archive data record (see
// DecodeLogRecordInto) onto dst, whose first LogRecordPrefix bytes from
// start are the record's prefix: block offsets count from start. It
// returns the extended slice; the caller writes the length words.
func AppendLogRecord(dst []byte, start int, r *pcp.Result, v3 bool) []byte {
	if v3 {
		dst = binary.BigEndian.AppendUint32(dst, uint32(r.Timestamp.Sec))
		dst = binary.BigEndian.AppendUint32(dst, uint32(uint64(r.Timestamp.Sec)>>32))
		dst = appendI32(dst, r.Timestamp.Nsec)
	} else {
		dst = appendI32(dst, int32(r.Timestamp.Sec))
		dst = appendI32(dst, r.Timestamp.Nsec/1000)
	}
	dst = appendI32(dst, int32(len(r.Sets)))
	return appendValueSets(dst, start, r.Sets)
}

// logStamp decodes a data record's timestamp: version 3's 64-bit seconds
// (the low word first, as libpcp's __pmPutTimestamp writes it on a
// little-endian host) and nanoseconds, version 2's 32-bit seconds and
// microseconds.
func logStamp(d *decoder, v3 bool) pcp.Timestamp {
	if v3 {
		lo := d.U32("timestamp seconds")
		hi := d.U32("timestamp seconds")
		nsec := d.I32("timestamp nanoseconds")
		return pcp.Timestamp{Sec: int64(uint64(hi)<<32 | uint64(lo)), Nsec: nsec}
	}
	sec := d.I32("timestamp seconds")
	usec := d.I32("timestamp microseconds")
	return pcp.Timestamp{Sec: int64(sec), Nsec: usec * 1000}
}
