package pdu

import (
	"encoding/binary"
	"fmt"

	"github.com/gopcp/gopcp/pcp"
)

// HeaderSize is the length of every PDU's header.
const HeaderSize = 12

// Header starts every PDU. Len counts the whole PDU, header included; From
// is the sender's process id, or 0 (FROM_ANON) where it does not matter,
// and carries the context number in some agent exchanges.
type Header struct {
	Len  int32
	Type Type
	From int32
}

// AppendHeader appends h to dst.
func AppendHeader(dst []byte, h Header) []byte {
	dst = binary.BigEndian.AppendUint32(dst, uint32(h.Len))
	dst = binary.BigEndian.AppendUint32(dst, uint32(h.Type))
	return binary.BigEndian.AppendUint32(dst, uint32(h.From))
}

// ParseHeader reads the header at the start of b. It checks only that the
// header is there and its length is at least a header's; whether the rest
// of the PDU is present is the caller's business.
func ParseHeader(b []byte) (Header, error) {
	if len(b) < HeaderSize {
		return Header{}, fmt.Errorf("pdu header: %d bytes, need %d: %w", len(b), HeaderSize, pcp.ErrIPC)
	}
	h := Header{
		Len:  int32(binary.BigEndian.Uint32(b)),
		Type: Type(binary.BigEndian.Uint32(b[4:])),
		From: int32(binary.BigEndian.Uint32(b[8:])),
	}
	if h.Len < HeaderSize {
		return h, fmt.Errorf("pdu header: illegal length %d: %w", h.Len, pcp.ErrIPC)
	}
	return h, nil
}

// begin appends a header whose length is patched by finish, so that an
// encoder can write its body without computing its size first.
func begin(dst []byte, t Type, from int32) ([]byte, int) {
	start := len(dst)
	return AppendHeader(dst, Header{Type: t, From: from}), start
}

// finish patches the length of the PDU that begin started at start.
func finish(dst []byte, start int) []byte {
	binary.BigEndian.PutUint32(dst[start:], uint32(len(dst)-start))
	return dst
}
