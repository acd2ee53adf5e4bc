package pdu

import (
	"fmt"

	"github.com/gopcp/gopcp/pcp"
)

// HighResResult is a HIGHRES_RESULT PDU, pmcd's reply to HIGHRES_FETCH:
// a RESULT whose timestamp has nanosecond resolution and 64-bit seconds.
// The count of value sets comes first, then the timestamp as two
// big-endian 64-bit words (seconds, nanoseconds), then the value sets and
// blocks exactly as in Result.
type HighResResult struct {
	pcp.Result
}

// PDUType returns TypeHighResResult.
func (*HighResResult) PDUType() Type { return TypeHighResResult }

// Append encodes the PDU onto dst; see AppendHighResResult.
func (m *HighResResult) Append(dst []byte, from int32) []byte {
	return AppendHighResResult(dst, from, &m.Result)
}

// Decode parses a HIGHRES_RESULT PDU into m, reusing its storage; see
// DecodeHighResResultInto.
func (m *HighResResult) Decode(pdu []byte) error {
	return DecodeHighResResultInto(&m.Result, pdu)
}

// AppendHighResResult encodes r as a HIGHRES_RESULT PDU onto dst, with
// value sets as AppendResult writes them.
func AppendHighResResult(dst []byte, from int32, r *pcp.Result) []byte {
	dst, start := begin(dst, TypeHighResResult, from)
	dst = appendI32(dst, int32(len(r.Sets)))
	dst = appendI64(dst, r.Timestamp.Sec)
	dst = appendI64(dst, int64(r.Timestamp.Nsec))
	dst = appendValueSets(dst, start, r.Sets)
	return finish(dst, start)
}

// DecodeHighResResultInto parses a HIGHRES_RESULT PDU into r, reusing r's
// storage and checking the layout as DecodeResultInto does. Nanoseconds
// outside 0..999999999 are refused.
func DecodeHighResResultInto(r *pcp.Result, pdu []byte) error {
	var dec decoder
	dec.reset(pdu, TypeHighResResult)
	d := &dec
	at := d.Off
	n := d.I32("numpmid")
	sec := d.I64("timestamp seconds")
	nsec := d.I64("timestamp nanoseconds")
	if d.Err == nil && (nsec < 0 || nsec >= 1e9) {
		d.Fail(at+12, fmt.Sprintf("timestamp nanoseconds %d out of range", nsec))
	}
	r.Timestamp = pcp.Timestamp{Sec: sec, Nsec: int32(nsec)}
	decodeValueSetsN(d, r, at, n)
	return d.Err
}
