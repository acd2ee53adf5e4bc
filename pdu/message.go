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

// newMessage makes an empty Message for each type this package decodes,
// nil for any other. Each PDU file adds its type here. It is a switch, not
// a map of constructors, so that linking the package builds nothing at
// start-up.
func newMessage(t Type) Message {
	switch t {
	case TypeDescReq:
		return new(DescReq)
	case TypeDesc:
		return new(Desc)
	case TypeDescIDs:
		return new(DescIDs)
	case TypeDescs:
		return new(Descs)
	case TypeInstanceReq:
		return new(InstanceReq)
	case TypeInstance:
		return new(Instance)
	case TypeTextReq:
		return new(TextReq)
	case TypeText:
		return new(Text)
	case TypePMNSIDs:
		return new(PMNSIDs)
	case TypePMNSNames:
		return new(PMNSNames)
	case TypePMNSChild:
		return new(PMNSChild)
	case TypePMNSTraverse:
		return new(PMNSTraverse)
	case TypeLabelReq:
		return new(LabelReq)
	case TypeLabel:
		return new(Label)
	case TypeLogControl:
		return new(LogControl)
	case TypeLogRequest:
		return new(LogRequest)
	case TypeLogStatus:
		return new(LogStatus)
	case TypeLogStatusV2:
		return new(LogStatusV2)
	case TypeError:
		return new(Error)
	case TypeCreds:
		return new(Creds)
	case TypeAttr:
		return new(Attr)
	case TypeProfile:
		return new(Profile)
	case TypeFetch:
		return new(Fetch)
	case TypeHighResFetch:
		return new(HighResFetch)
	case TypeResult:
		return new(Result)
	case TypeHighResResult:
		return new(HighResResult)
	}
	return nil
}

// Decode parses a whole PDU of any known type into a new Message.
func Decode(pdu []byte) (Message, error) {
	h, err := ParseHeader(pdu)
	if err != nil {
		return nil, err
	}
	m := newMessage(h.Type)
	if m == nil {
		return nil, fmt.Errorf("pdu: unknown type %#x: %w", int32(h.Type), pcp.ErrIPC)
	}
	if err := m.Decode(pdu); err != nil {
		return nil, err
	}
	return m, nil
}
