package pdu

import (
	"fmt"

	"github.com/gopcp/gopcp/pcp"
)

// Fetch is a FETCH PDU: a client's request for the values of some metrics
// in the context it numbers. Between the context and the count PCP keeps
// a legacy timestamp field that it sends as zeros and ignores; so do we.
// The reply is a RESULT.
type Fetch struct {
	Context int32
	PMIDs   []pcp.PMID
}

// PDUType returns TypeFetch.
func (*Fetch) PDUType() Type { return TypeFetch }

// Append encodes the PDU onto dst.
func (m *Fetch) Append(dst []byte, from int32) []byte {
	return appendFetch(dst, TypeFetch, from, m.Context, m.PMIDs)
}

// Decode parses a FETCH PDU, reusing m.PMIDs' storage. As in PCP, the
// list may not be empty.
func (m *Fetch) Decode(pdu []byte) error {
	var err error
	m.Context, m.PMIDs, err = decodeFetch(pdu, TypeFetch, m.PMIDs)
	return err
}

func appendFetch(dst []byte, t Type, from, ctx int32, pmids []pcp.PMID) []byte {
	dst, start := begin(dst, t, from)
	dst = appendI32(dst, ctx)
	dst = appendU64(dst, 0)
	dst = appendI32(dst, int32(len(pmids)))
	for _, p := range pmids {
		dst = appendU32(dst, uint32(p))
	}
	return finish(dst, start)
}

func decodeFetch(pdu []byte, t Type, pmids []pcp.PMID) (int32, []pcp.PMID, error) {
	var dec decoder
	dec.reset(pdu, t)
	d := &dec
	ctx := d.I32("context")
	d.U64("unused timestamp")
	at := d.Off
	n := d.Count(4, "numpmid")
	if d.Err == nil && n == 0 {
		d.Fail(at, "numpmid is 0")
	}
	if d.Err == nil && d.Remaining() != 4*n {
		d.Fail(at, fmt.Sprintf("numpmid %d but %d bytes follow", n, d.Remaining()))
	}
	pmids = pmids[:0]
	for i := 0; i < n && d.Err == nil; i++ {
		pmids = append(pmids, pcp.PMID(d.U32("pmid")))
	}
	return ctx, pmids, d.Done()
}
