package pdu

import "github.com/gopcp/gopcp/pcp"

// DescReq is a DESC_REQ PDU: a client asks pmcd (and pmcd an agent) for the
// descriptor of one metric.
//
//	PMID
type DescReq struct {
	PMID pcp.PMID
}

// descSize is a pmDesc on the wire: PMID, type, InDom, semantics, units.
const descSize = 20

// PDUType returns TypeDescReq.
func (*DescReq) PDUType() Type { return TypeDescReq }

// Append encodes the PDU onto dst.
func (m *DescReq) Append(dst []byte, from int32) []byte {
	dst, start := begin(dst, TypeDescReq, from)
	dst = appendU32(dst, uint32(m.PMID))
	return finish(dst, start)
}

// Decode parses a DESC_REQ PDU, which has exactly one length.
func (m *DescReq) Decode(pdu []byte) error {
	d, _ := newDecoder(pdu, TypeDescReq)
	*m = DescReq{PMID: pcp.PMID(d.U32("pmid"))}
	return d.Done()
}

// Desc is a DESC PDU, the answer to DESC_REQ: one metric descriptor.
//
//	PMID | type | InDom | semantics | units (packed)
type Desc struct {
	Desc pcp.Desc
}

// PDUType returns TypeDesc.
func (*Desc) PDUType() Type { return TypeDesc }

// Append encodes the PDU onto dst.
func (m *Desc) Append(dst []byte, from int32) []byte {
	dst, start := begin(dst, TypeDesc, from)
	dst = appendDesc(dst, &m.Desc)
	return finish(dst, start)
}

// Decode parses a DESC PDU, which has exactly one length.
func (m *Desc) Decode(pdu []byte) error {
	d, _ := newDecoder(pdu, TypeDesc)
	*m = Desc{Desc: readDesc(d)}
	return d.Done()
}

// appendDesc appends a pmDesc in the field order of PCP's struct, which is
// not the order PCP's encoder assigns them in.
func appendDesc(dst []byte, desc *pcp.Desc) []byte {
	dst = appendU32(dst, uint32(desc.PMID))
	dst = appendI32(dst, int32(desc.Type))
	dst = appendU32(dst, uint32(desc.InDom))
	dst = appendI32(dst, int32(desc.Sem))
	return appendU32(dst, desc.Units.Pack())
}

func readDesc(d *decoder) pcp.Desc {
	return pcp.Desc{
		PMID:  pcp.PMID(d.U32("pmid")),
		Type:  pcp.Type(d.I32("type")),
		InDom: pcp.InDom(d.U32("indom")),
		Sem:   pcp.Sem(d.I32("sem")),
		Units: pcp.UnpackUnits(d.U32("units")),
	}
}
