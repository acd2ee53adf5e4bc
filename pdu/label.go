package pdu

import (
	"encoding/binary"
	"fmt"

	"github.com/gopcp/gopcp/internal/wire"
	"github.com/gopcp/gopcp/pcp"
)

// LabelReq is a LABEL_REQ PDU: a request for the label sets at one level
// of the label hierarchy. Type is one of the level flags pcp.LabelContext,
// pcp.LabelDomain, pcp.LabelInDom, pcp.LabelCluster, pcp.LabelItem or
// pcp.LabelInstances; Ident is then nothing (PCP sends pcp.PMIDNull), a
// domain number, an InDom, a PMID or an InDom respectively.
//
//	ident | type
type LabelReq struct {
	Ident uint32
	Type  int32
}

// PDUType returns TypeLabelReq.
func (*LabelReq) PDUType() Type { return TypeLabelReq }

// Append encodes the PDU onto dst.
func (m *LabelReq) Append(dst []byte, from int32) []byte {
	dst, start := begin(dst, TypeLabelReq, from)
	dst = appendU32(dst, m.Ident)
	dst = appendI32(dst, m.Type)
	return finish(dst, start)
}

// Decode parses a LABEL_REQ PDU, which has exactly one length.
func (m *LabelReq) Decode(pdu []byte) error {
	d, _ := newDecoder(pdu, TypeLabelReq)
	*m = LabelReq{Ident: d.U32("ident"), Type: d.I32("type")}
	return d.Done()
}

// Label is a LABEL PDU, the answer to LABEL_REQ, repeating its Ident and
// Type: a list of label sets, one per instance for pcp.LabelInstances and
// at most one otherwise.
//
//	ident | type | padding (0) | set count | set ... | JSON ...
//
// A set is "inst | label count | JSON offset | JSON length" followed by
// that many 8-byte labels, "name offset (16 bits) | name length (8) |
// flags (8) | value offset (16) | value length (16)". The label count may
// instead be a negative PCP error code, with no labels following. The JSON
// offset counts from the start of the PDU, the label offsets from the
// start of their set's JSON. The JSON texts follow the last set, in set
// order, unpadded, so the PDU's length need not be a multiple of four.
//
// In a decoded set, NLabels is the count (or error) from the PDU and
// Compound is false, since the wire does not carry it. In a set to encode,
// a negative NLabels is sent as the error it is, and otherwise the count
// sent is len(Labels). PCP rejects a set with pcp.MaxLabels labels or more
// or with pcp.MaxLabelJSONLen bytes of JSON or more.
type Label struct {
	Ident uint32
	Type  int32
	Sets  []pcp.LabelSet
}

const (
	labelFixedLen = HeaderSize + 16
	labelSetSize  = 16
	labelSize     = 8
)

// PDUType returns TypeLabel.
func (*Label) PDUType() Type { return TypeLabel }

// Append encodes the PDU onto dst.
func (m *Label) Append(dst []byte, from int32) []byte {
	dst, start := begin(dst, TypeLabel, from)
	dst = appendU32(dst, m.Ident)
	dst = appendI32(dst, m.Type)
	dst = appendI32(dst, 0)
	dst = appendI32(dst, int32(len(m.Sets)))
	jsonAt := labelFixedLen
	for i := range m.Sets {
		jsonAt += labelSetSize + labelSize*len(sentLabels(&m.Sets[i]))
	}
	for i := range m.Sets {
		s := &m.Sets[i]
		labels := sentLabels(s)
		n := int32(len(labels))
		if s.NLabels < 0 {
			n = s.NLabels
		}
		dst = appendI32(dst, s.Inst)
		dst = appendI32(dst, n)
		dst = appendI32(dst, int32(jsonAt))
		dst = appendI32(dst, int32(len(s.JSON)))
		jsonAt += len(s.JSON)
		for _, l := range labels {
			dst = binary.BigEndian.AppendUint16(dst, l.Name)
			dst = append(dst, l.NameLen, l.Flags)
			dst = binary.BigEndian.AppendUint16(dst, l.Value)
			dst = binary.BigEndian.AppendUint16(dst, l.ValueLen)
		}
	}
	for i := range m.Sets {
		dst = append(dst, m.Sets[i].JSON...)
	}
	return finish(dst, start)
}

// sentLabels is the labels of s that go on the wire: none when its count
// is an error.
func sentLabels(s *pcp.LabelSet) []pcp.Label {
	if s.NLabels < 0 {
		return nil
	}
	return s.Labels
}

// Decode parses a LABEL PDU, each set by wire.LabelSet with the limits
// of __pmDecodeLabel (wire.PDULabels). It
// checks besides what PCP's decoder leaves unchecked, holding the PDU to
// the layout PCP's one encoder gives it: the JSON texts follow the sets
// back to back in set order up to the end of the PDU, and each label's
// name and value lie within its set's JSON.
func (m *Label) Decode(pdu []byte) error {
	d, _ := newDecoder(pdu, TypeLabel)
	*m = Label{Ident: d.U32("ident"), Type: d.I32("type")}
	d.I32("padding")
	n := d.Count(labelSetSize, "label set count")
	if d.Err != nil {
		return d.Err
	}
	refs := make([]wire.JSONRef, n)
	m.Sets = make([]pcp.LabelSet, n)
	for i := range m.Sets {
		refs[i] = d.LabelSet(wire.PDULabels, &m.Sets[i])
		if d.Err != nil {
			return d.Err
		}
	}
	// The texts are checked first so that one copy can hold them all.
	setsEnd, next := d.Off, d.Off
	for _, r := range refs {
		if r.Off != next || r.Len > len(pdu)-next {
			d.Fail(r.At, fmt.Sprintf("JSON of %d bytes at %d, not at %d within %d bytes", r.Len, r.Off, next, len(pdu)))
			return d.Err
		}
		next += r.Len
	}
	all := string(pdu[setsEnd:next])
	for i := range m.Sets {
		r, s := refs[i], &m.Sets[i]
		s.JSON = all[r.Off-setsEnd : r.Off-setsEnd+r.Len]
		for j, l := range s.Labels {
			if int(l.Name)+int(l.NameLen) > r.Len || int(l.Value)+int(l.ValueLen) > r.Len {
				d.Fail(r.At+8+j*labelSize, fmt.Sprintf("label %d lies outside its %d bytes of JSON", j, r.Len))
				return d.Err
			}
		}
	}
	d.Off = next
	return d.Done()
}
