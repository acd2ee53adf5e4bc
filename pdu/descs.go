package pdu

import (
	"fmt"

	"github.com/gopcp/gopcp/pcp"
)

// descIDsStatus is the status word of a DESC_IDS PDU. DESC_IDS and
// PMNS_IDS share one layout; PCP tells them apart on sending by this word,
// and its DESC_IDS decoder rejects any other value.
const descIDsStatus = -1

// DescIDs is a DESC_IDS PDU: a client asks for the descriptors of several
// metrics at once (pmLookupDescs). PCP rejects an empty list.
//
//	status (-1) | count | PMID ...
type DescIDs struct {
	PMIDs []pcp.PMID
}

// PDUType returns TypeDescIDs.
func (*DescIDs) PDUType() Type { return TypeDescIDs }

// Append encodes the PDU onto dst.
func (m *DescIDs) Append(dst []byte, from int32) []byte {
	dst, start := begin(dst, TypeDescIDs, from)
	dst = appendIDList(dst, descIDsStatus, m.PMIDs)
	return finish(dst, start)
}

// Decode parses a DESC_IDS PDU.
func (m *DescIDs) Decode(pdu []byte) error {
	d, _ := newDecoder(pdu, TypeDescIDs)
	at := d.Off
	sts, ids := readIDList(d)
	if d.Err == nil && sts != descIDsStatus {
		d.Fail(at, fmt.Sprintf("status is %d, not %d", sts, descIDsStatus))
	}
	*m = DescIDs{PMIDs: ids}
	return d.Done()
}

// appendIDList appends the body PMNS_IDS and DESC_IDS share.
func appendIDList(dst []byte, sts int32, ids []pcp.PMID) []byte {
	dst = appendI32(dst, sts)
	dst = appendI32(dst, int32(len(ids)))
	for _, id := range ids {
		dst = appendU32(dst, uint32(id))
	}
	return dst
}

// readIDList reads the body PMNS_IDS and DESC_IDS share. PCP's decoders
// reject an empty list, so this does too.
func readIDList(d *decoder) (int32, []pcp.PMID) {
	sts := d.I32("status")
	at := d.Off
	n := d.Count(4, "PMID count")
	if d.Err == nil && n == 0 {
		d.Fail(at, "empty PMID list")
	}
	if d.Err != nil {
		return 0, nil
	}
	ids := make([]pcp.PMID, n)
	for i := range ids {
		ids[i] = pcp.PMID(d.U32("pmid"))
	}
	return sts, ids
}

// Descs is a DESCS PDU, the answer to DESC_IDS: one descriptor per PMID
// asked for, in order, with PMID set to pcp.PMIDNull for those that could
// not be found. PCP rejects an empty list.
//
//	count | desc ...
type Descs struct {
	Descs []pcp.Desc
}

// PDUType returns TypeDescs.
func (*Descs) PDUType() Type { return TypeDescs }

// Append encodes the PDU onto dst.
func (m *Descs) Append(dst []byte, from int32) []byte {
	dst, start := begin(dst, TypeDescs, from)
	dst = appendI32(dst, int32(len(m.Descs)))
	for i := range m.Descs {
		dst = appendDesc(dst, &m.Descs[i])
	}
	return finish(dst, start)
}

// Decode parses a DESCS PDU.
func (m *Descs) Decode(pdu []byte) error {
	d, _ := newDecoder(pdu, TypeDescs)
	at := d.Off
	n := d.Count(descSize, "desc count")
	if d.Err == nil && n == 0 {
		d.Fail(at, "empty desc list")
	}
	*m = Descs{}
	if d.Err == nil {
		m.Descs = make([]pcp.Desc, n)
		for i := range m.Descs {
			m.Descs[i] = readDesc(d)
		}
	}
	return d.Done()
}
