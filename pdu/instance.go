package pdu

import "github.com/gopcp/gopcp/pcp"

// InstanceReq is an INSTANCE_REQ PDU, which serves three questions about
// an instance domain: all its instances (Inst pcp.InstNull, no Name), the
// name of one instance (Inst set, no Name), or the instance with a name
// (Inst pcp.InstNull, Name set).
//
//	InDom | unused (8 zero bytes) | inst | name length | name, padded with '~'
//
// The unused words are where PCP 1 sent a time; PCP writes zeros there and
// ignores them, and so does this package.
type InstanceReq struct {
	InDom pcp.InDom
	Inst  int32
	Name  string
}

// PDUType returns TypeInstanceReq.
func (*InstanceReq) PDUType() Type { return TypeInstanceReq }

// Append encodes the PDU onto dst.
func (m *InstanceReq) Append(dst []byte, from int32) []byte {
	dst, start := begin(dst, TypeInstanceReq, from)
	dst = appendU32(dst, uint32(m.InDom))
	dst = appendU64(dst, 0)
	dst = appendI32(dst, m.Inst)
	dst = appendI32(dst, int32(len(m.Name)))
	dst = appendTildePadded(dst, m.Name)
	return finish(dst, start)
}

// Decode parses an INSTANCE_REQ PDU.
func (m *InstanceReq) Decode(pdu []byte) error {
	d, _ := newDecoder(pdu, TypeInstanceReq)
	*m = InstanceReq{InDom: pcp.InDom(d.U32("indom"))}
	d.U64("unused time")
	m.Inst = d.I32("inst")
	m.Name = readPaddedString(d, "name")
	return d.Done()
}

// InstEntry is one instance in an INSTANCE PDU. Name is empty where the
// answer carries no names (a lookup by name), and Inst is pcp.InstNull
// where it carries no numbers (a lookup by number).
type InstEntry struct {
	Inst int32
	Name string
}

// Instance is an INSTANCE PDU, the answer to INSTANCE_REQ.
//
//	InDom | count | { inst | name length | name, padded with '~' } ...
//
// A list sent without names has a zero length and no name bytes in each
// entry, which is also how an empty name is sent, so the two are one.
type Instance struct {
	InDom   pcp.InDom
	Entries []InstEntry
}

// instEntryMin is the smallest entry: inst and a zero name length.
const instEntryMin = 8

// PDUType returns TypeInstance.
func (*Instance) PDUType() Type { return TypeInstance }

// Append encodes the PDU onto dst.
func (m *Instance) Append(dst []byte, from int32) []byte {
	dst, start := begin(dst, TypeInstance, from)
	dst = appendU32(dst, uint32(m.InDom))
	dst = appendI32(dst, int32(len(m.Entries)))
	for _, e := range m.Entries {
		dst = appendI32(dst, e.Inst)
		dst = appendI32(dst, int32(len(e.Name)))
		dst = appendTildePadded(dst, e.Name)
	}
	return finish(dst, start)
}

// Decode parses an INSTANCE PDU.
func (m *Instance) Decode(pdu []byte) error {
	d, _ := newDecoder(pdu, TypeInstance)
	*m = Instance{InDom: pcp.InDom(d.U32("indom"))}
	n := d.Count(instEntryMin, "instance count")
	if d.Err != nil {
		return d.Err
	}
	m.Entries = make([]InstEntry, n)
	for i := range m.Entries {
		m.Entries[i].Inst = d.I32("inst")
		m.Entries[i].Name = readPaddedString(d, "instance name")
	}
	return d.Done()
}
