package pdu

import "github.com/gopcp/gopcp/pcp"

// HighResFetch is a HIGHRES_FETCH PDU, the request PCP 6 clients send to a
// pmcd offering FlagHighRes. Its layout is FETCH's, unused timestamp
// included; the reply is a HIGHRES_RESULT.
type HighResFetch struct {
	Context int32
	PMIDs   []pcp.PMID
}

// PDUType returns TypeHighResFetch.
func (*HighResFetch) PDUType() Type { return TypeHighResFetch }

// Append encodes the PDU onto dst.
func (m *HighResFetch) Append(dst []byte, from int32) []byte {
	return appendFetch(dst, TypeHighResFetch, from, m.Context, m.PMIDs)
}

// Decode parses a HIGHRES_FETCH PDU, reusing m.PMIDs' storage. The list
// may not be empty.
func (m *HighResFetch) Decode(pdu []byte) error {
	var err error
	m.Context, m.PMIDs, err = decodeFetch(pdu, TypeHighResFetch, m.PMIDs)
	return err
}
