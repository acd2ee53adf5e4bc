package trace

import (
	"encoding/binary"
	"io"
	"math"
)

// PDU types and sizes of the trace protocol (trace_dev.h).
const (
	PDUAck  = 0x7050 // TRACE_PDU_ACK: one 32-bit value
	PDUData = 0x7051 // TRACE_PDU_DATA: a datum for a tag

	// Version is the protocol version, sent in every DATA PDU and in the
	// ACK that welcomes a new connection.
	Version = 1
	// DefaultPort is the agent's TCP port unless told otherwise.
	DefaultPort = 4323

	// HeaderLen is the length of a PDU header: length, type, sender.
	HeaderLen = 12
	// AckLen is the length of an ACK PDU.
	AckLen = HeaderLen + 4
	// MaxPDULen is the longest PDU libpcp_trace's reader accepts:
	// a header, one word and 256 bytes. A DATA PDU whose padded tag
	// makes it longer (tags of 249 bytes and more) is refused by the
	// agent, as PCP's refuses it.
	MaxPDULen = HeaderLen + 4 + 256
	// dataFixed is a DATA PDU before its tag: header, word, double.
	dataFixed = HeaderLen + 4 + 8
	// MaxTagLen is the longest tag the library sends: with its NUL it
	// must stay under 256 bytes (MAXTAGNAMELEN).
	MaxTagLen = 254
)

// Type is a trace type: what a DATA PDU's value means.
type Type uint8

// The trace types (TRACE_TYPE_*).
const (
	TypeTransact Type = 1 // a transaction's elapsed seconds
	TypePoint    Type = 2 // a point passed; the value is -1
	TypeObserve  Type = 3 // an observed value
	TypeCounter  Type = 4 // a monotonic count
)

// String is the type's name as the agent's metrics spell it.
func (t Type) String() string {
	switch t {
	case TypeTransact:
		return "transact"
	case TypePoint:
		return "point"
	case TypeObserve:
		return "observe"
	case TypeCounter:
		return "counter"
	}
	return "unknown"
}

// dataLen is the length of a DATA PDU for a tag of n bytes (NUL not
// counted): the tag and its NUL rounded up to 4 bytes.
func dataLen(n int) int { return dataFixed + (n+1+3)&^3 }

// AppendData appends a DATA PDU as libpcp_trace's __pmtracesenddata
// writes it: from is the sender's pid, sync whether an ACK is wanted.
// The tag is not checked here (see CheckTag).
func AppendData(dst []byte, from int32, tag string, t Type, sync bool, value float64) []byte {
	n := dataLen(len(tag))
	dst = binary.BigEndian.AppendUint32(dst, uint32(n))
	dst = binary.BigEndian.AppendUint32(dst, PDUData)
	dst = binary.BigEndian.AppendUint32(dst, uint32(from))
	taglen := uint32(len(tag)+1) & 0xff
	word := uint32(Version)<<24 | taglen<<16 | uint32(t)<<8
	if sync {
		word |= 1 << 7
	}
	dst = binary.BigEndian.AppendUint32(dst, word)
	dst = binary.BigEndian.AppendUint64(dst, math.Float64bits(value))
	dst = append(dst, tag...)
	dst = append(dst, 0)
	for pad := n - dataFixed - len(tag) - 1; pad > 0; pad-- {
		dst = append(dst, '~')
	}
	return dst
}

// AppendAck appends an ACK PDU carrying value.
func AppendAck(dst []byte, from int32, value int32) []byte {
	dst = binary.BigEndian.AppendUint32(dst, AckLen)
	dst = binary.BigEndian.AppendUint32(dst, PDUAck)
	dst = binary.BigEndian.AppendUint32(dst, uint32(from))
	return binary.BigEndian.AppendUint32(dst, uint32(value))
}

// Header is a PDU's header.
type Header struct {
	Len  int32
	Type int32
	From int32
}

// Data is a decoded DATA PDU.
type Data struct {
	// Tag is the tag up to its first NUL, as the agent names instances.
	Tag string
	// TagLen is the tag length the PDU declares, its NUL included.
	TagLen uint8
	Type   Type
	// Sync says the sender waits for an ACK.
	Sync  bool
	Value float64
}

// ReadPDU reads one PDU into buf (at least MaxPDULen bytes) and returns
// it, header included. A length outside libpcp_trace's bounds (an ACK's
// 16 bytes to MaxPDULen) is ErrIPC before anything more is read, so a
// stream of garbage costs one header; io.EOF means the peer closed
// between PDUs.
func ReadPDU(r io.Reader, buf []byte) (Header, []byte, error) {
	if _, err := io.ReadFull(r, buf[:HeaderLen]); err != nil {
		if err == io.ErrUnexpectedEOF {
			err = ErrIPC
		}
		return Header{}, nil, err
	}
	h := Header{
		Len:  int32(binary.BigEndian.Uint32(buf[0:])),
		Type: int32(binary.BigEndian.Uint32(buf[4:])),
		From: int32(binary.BigEndian.Uint32(buf[8:])),
	}
	if h.Len < AckLen || h.Len > MaxPDULen {
		return h, nil, ErrIPC
	}
	if _, err := io.ReadFull(r, buf[HeaderLen:h.Len]); err != nil {
		return h, nil, ErrIPC
	}
	return h, buf[:h.Len], nil
}

// DecodeAck decodes an ACK PDU's value; the PDU must be exactly AckLen
// bytes, as libpcp_trace requires.
func DecodeAck(pdu []byte) (int32, error) {
	if len(pdu) != AckLen {
		return 0, ErrIPC
	}
	return int32(binary.BigEndian.Uint32(pdu[HeaderLen:])), nil
}

// maxWireTagLen is the largest tag length (NUL included) the agent
// accepts: libpcp_trace's decoder wants it below CHAR_MAX-1.
const maxWireTagLen = 125

// DecodeData decodes a DATA PDU by the checks of libpcp_trace's
// __pmtracedecodedata: room for the word and the double, protocol version
// 1 (else ErrVersion), a tag length from 1 to 125 that fits in the PDU.
// The type is not checked (the agent does that).
func DecodeData(pdu []byte) (Data, error) {
	if len(pdu) < dataFixed {
		return Data{}, ErrIPC
	}
	word := binary.BigEndian.Uint32(pdu[HeaderLen:])
	if word>>24 != Version {
		return Data{}, ErrVersion
	}
	taglen := int(word >> 16 & 0xff)
	if taglen <= 0 || taglen > maxWireTagLen || len(pdu) < dataFixed+taglen {
		return Data{}, ErrIPC
	}
	tag := pdu[dataFixed : dataFixed+taglen]
	for i, b := range tag {
		if b == 0 {
			tag = tag[:i]
			break
		}
	}
	return Data{
		Tag:    string(tag),
		TagLen: uint8(taglen),
		Type:   Type(word >> 8 & 0xff),
		Sync:   word&(1<<7) != 0,
		Value:  math.Float64frombits(binary.BigEndian.Uint64(pdu[HeaderLen+4:])),
	}, nil
}

// CheckTag applies libpcp_trace's rules for a tag: not empty
// (ErrTagName) and, with its NUL, shorter than 256 bytes (ErrTagLength).
// A tag holding a NUL byte is ErrTagName here: C would send only what
// precedes it.
func CheckTag(tag string) error {
	if tag == "" {
		return ErrTagName
	}
	if len(tag) > MaxTagLen {
		return ErrTagLength
	}
	for i := 0; i < len(tag); i++ {
		if tag[i] == 0 {
			return ErrTagName
		}
	}
	return nil
}
