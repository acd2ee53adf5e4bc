package pdu

import (
	"fmt"

	"github.com/gopcp/gopcp/pcp"
)

// Message is one PDU's content. Each PDU type is a struct that implements
// it with a pointer receiver.
type Message interface {
	// PDUType is the code this message is sent with.
	PDUType() Type
	// Append encodes the whole PDU, header included, onto dst with the
	// given sender in the header.
	Append(dst []byte, from int32) []byte
	// Decode parses a whole PDU, header included, replacing the receiver's
	// content. Fields may alias pdu where the type's doc says so.
	Decode(pdu []byte) error
}

// newMessage makes an empty Message for each type this package decodes.
// Each PDU file adds its constructor here.
var newMessage = map[Type]func() Message{
	// e.g. TypeFetch: func() Message { return new(Fetch) },
}

// Decode parses a whole PDU of any known type into a new Message.
func Decode(pdu []byte) (Message, error) {
	h, err := ParseHeader(pdu)
	if err != nil {
		return nil, err
	}
	mk, ok := newMessage[h.Type]
	if !ok {
		return nil, fmt.Errorf("pdu: unknown type %#x: %w", int32(h.Type), pcp.ErrIPC)
	}
	m := mk()
	if err := m.Decode(pdu); err != nil {
		return nil, err
	}
	return m, nil
}
