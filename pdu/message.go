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
	TypeDescReq:      func() Message { return new(DescReq) },
	TypeDesc:         func() Message { return new(Desc) },
	TypeDescIDs:      func() Message { return new(DescIDs) },
	TypeDescs:        func() Message { return new(Descs) },
	TypeInstanceReq:  func() Message { return new(InstanceReq) },
	TypeInstance:     func() Message { return new(Instance) },
	TypeTextReq:      func() Message { return new(TextReq) },
	TypeText:         func() Message { return new(Text) },
	TypePMNSIDs:      func() Message { return new(PMNSIDs) },
	TypePMNSNames:    func() Message { return new(PMNSNames) },
	TypePMNSChild:    func() Message { return new(PMNSChild) },
	TypePMNSTraverse: func() Message { return new(PMNSTraverse) },
	TypeLabelReq:     func() Message { return new(LabelReq) },
	TypeLabel:        func() Message { return new(Label) },
	TypeLogControl:   func() Message { return new(LogControl) },
	TypeLogRequest:   func() Message { return new(LogRequest) },
	TypeLogStatus:    func() Message { return new(LogStatus) },
	TypeLogStatusV2:  func() Message { return new(LogStatusV2) },

	TypeError:         func() Message { return new(Error) },
	TypeCreds:         func() Message { return new(Creds) },
	TypeAttr:          func() Message { return new(Attr) },
	TypeProfile:       func() Message { return new(Profile) },
	TypeFetch:         func() Message { return new(Fetch) },
	TypeHighResFetch:  func() Message { return new(HighResFetch) },
	TypeResult:        func() Message { return new(Result) },
	TypeHighResResult: func() Message { return new(HighResResult) },
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
