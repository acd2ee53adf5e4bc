package pdu

import (
	"fmt"

	"github.com/gopcp/gopcp/pcp"
)

// Status of a name in a PMNS_NAMES list that carries one, PMNS_*_STATUS in
// PCP: whether the name is a metric or a subtree.
const (
	PMNSLeafStatus    = 0 // PMNS_LEAF_STATUS
	PMNSNonLeafStatus = 1 // PMNS_NONLEAF_STATUS
)

// Subtypes of PMNS_CHILD: whether the answer should say which children are
// leaves (pmGetChildrenStatus) or not (pmGetChildren). PCP uses the bare
// numbers.
const (
	PMNSChildNames  = 0
	PMNSChildStatus = 1
)

// PMNSIDs is a PMNS_IDS PDU. A client sends one PMID to ask for its names
// (pmNameID), with Status 0; pmcd answers a PMNS_NAMES list of names with
// their PMIDs in this PDU, pcp.PMIDNull for each name it does not know and
// Status the count of names it does. PCP rejects an empty list.
//
//	status | count | PMID ...
type PMNSIDs struct {
	Status int32
	PMIDs  []pcp.PMID
}

// PDUType returns TypePMNSIDs.
func (*PMNSIDs) PDUType() Type { return TypePMNSIDs }

// Append encodes the PDU onto dst.
func (m *PMNSIDs) Append(dst []byte, from int32) []byte {
	dst, start := begin(dst, TypePMNSIDs, from)
	dst = appendIDList(dst, m.Status, m.PMIDs)
	return finish(dst, start)
}

// Decode parses a PMNS_IDS PDU.
func (m *PMNSIDs) Decode(pdu []byte) error {
	d, _ := newDecoder(pdu, TypePMNSIDs)
	sts, ids := readIDList(d)
	*m = PMNSIDs{Status: sts, PMIDs: ids}
	return d.Done()
}

// PMNSNames is a PMNS_NAMES PDU: a list of metric names, each with a
// status when the list answers pmGetChildrenStatus. Clients send one to
// look names up (pmLookupName); pmcd sends one to answer PMNS_IDS,
// PMNS_CHILD and PMNS_TRAVERSE.
//
//	string bytes | status count | name count | entry ...
//
// where an entry is "name length | name, padded with '~'", preceded by a
// status word when the status count (which is then the name count) is not
// zero. String bytes is the total of the name lengths plus one for each
// name, the space PCP's decoder allocates for NUL-terminated copies.
type PMNSNames struct {
	Names []string
	// Status, when not nil, holds one PMNSLeafStatus or
	// PMNSNonLeafStatus per name and selects the layout with status words.
	Status []int32
}

// PDUType returns TypePMNSNames.
func (*PMNSNames) PDUType() Type { return TypePMNSNames }

// Append encodes the PDU onto dst. A name without a status (Status not
// nil but shorter than Names) is sent as a leaf.
func (m *PMNSNames) Append(dst []byte, from int32) []byte {
	dst, start := begin(dst, TypePMNSNames, from)
	strBytes := 0
	for _, s := range m.Names {
		strBytes += len(s) + 1
	}
	dst = appendI32(dst, int32(strBytes))
	if m.Status != nil {
		dst = appendI32(dst, int32(len(m.Names)))
	} else {
		dst = appendI32(dst, 0)
	}
	dst = appendI32(dst, int32(len(m.Names)))
	for i, s := range m.Names {
		if m.Status != nil {
			var st int32 = PMNSLeafStatus
			if i < len(m.Status) {
				st = m.Status[i]
			}
			dst = appendI32(dst, st)
		}
		dst = appendI32(dst, int32(len(s)))
		dst = appendTildePadded(dst, s)
	}
	return finish(dst, start)
}

// Decode parses a PMNS_NAMES PDU, with PCP's checks: the status count is
// zero or the name count, and the names fit in the string bytes, which
// themselves are no more than the PDU's length. As in PCP, an empty list
// is accepted whatever its other counts say.
func (m *PMNSNames) Decode(pdu []byte) error {
	d, h := newDecoder(pdu, TypePMNSNames)
	*m = PMNSNames{}
	strAt := d.Off
	strBytes := d.I32("string bytes")
	statusAt := d.Off
	numStatus := d.I32("status count")
	numAt := d.Off
	numNames := d.I32("name count")
	if d.Err != nil || numNames == 0 {
		return d.Done()
	}
	withStatus := numStatus != 0
	entryMin := 4
	if withStatus {
		entryMin = 8
	}
	switch {
	case numNames < 0:
		d.Fail(numAt, fmt.Sprintf("name count is negative (%d)", numNames))
	case int64(numNames)*int64(entryMin) > int64(d.Remaining()):
		d.Fail(numAt, fmt.Sprintf("name count %d cannot fit in %d bytes", numNames, d.Remaining()))
	case strBytes < 0 || strBytes > h.Len:
		d.Fail(strAt, fmt.Sprintf("string bytes %d outside 0..%d", strBytes, h.Len))
	case withStatus && numStatus != numNames:
		d.Fail(statusAt, fmt.Sprintf("status count %d is neither 0 nor the name count %d", numStatus, numNames))
	}
	if d.Err != nil {
		return d.Err
	}
	m.Names = make([]string, numNames)
	if withStatus {
		m.Status = make([]int32, numNames)
	}
	left := int(strBytes)
	for i := range m.Names {
		if withStatus {
			m.Status[i] = d.I32("status")
		}
		at := d.Off
		m.Names[i] = readPaddedString(d, "name")
		if d.Err == nil {
			left -= len(m.Names[i]) + 1
			if left < 0 {
				d.Fail(at, fmt.Sprintf("names exceed string bytes %d", strBytes))
			}
		}
	}
	return d.Done()
}

// PMNSChild is a PMNS_CHILD PDU: a request for the names one level below
// a node of the namespace. Subtype is PMNSChildNames or PMNSChildStatus.
//
//	subtype | name length | name, padded with '~'
type PMNSChild struct {
	Subtype int32
	Name    string
}

// PDUType returns TypePMNSChild.
func (*PMNSChild) PDUType() Type { return TypePMNSChild }

// Append encodes the PDU onto dst.
func (m *PMNSChild) Append(dst []byte, from int32) []byte {
	return appendNameReq(dst, TypePMNSChild, from, m.Subtype, m.Name)
}

// Decode parses a PMNS_CHILD PDU.
func (m *PMNSChild) Decode(pdu []byte) error {
	d, _ := newDecoder(pdu, TypePMNSChild)
	*m = PMNSChild{Subtype: d.I32("subtype")}
	m.Name = readPaddedString(d, "name")
	return d.Done()
}

// PMNSTraverse is a PMNS_TRAVERSE PDU: a request for every metric name at
// or below a node of the namespace; the empty name is the root. It has
// PMNS_CHILD's layout with a subtype of zero, which PCP neither sets nor
// reads.
type PMNSTraverse struct {
	Name string
}

// PDUType returns TypePMNSTraverse.
func (*PMNSTraverse) PDUType() Type { return TypePMNSTraverse }

// Append encodes the PDU onto dst.
func (m *PMNSTraverse) Append(dst []byte, from int32) []byte {
	return appendNameReq(dst, TypePMNSTraverse, from, 0, m.Name)
}

// Decode parses a PMNS_TRAVERSE PDU, ignoring its subtype as PCP does.
func (m *PMNSTraverse) Decode(pdu []byte) error {
	d, _ := newDecoder(pdu, TypePMNSTraverse)
	d.I32("subtype")
	*m = PMNSTraverse{Name: readPaddedString(d, "name")}
	return d.Done()
}

func appendNameReq(dst []byte, t Type, from, subtype int32, name string) []byte {
	dst, start := begin(dst, t, from)
	dst = appendI32(dst, subtype)
	dst = appendI32(dst, int32(len(name)))
	dst = appendTildePadded(dst, name)
	return finish(dst, start)
}
