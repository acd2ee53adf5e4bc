package pdu

import (
	"bytes"
	"slices"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// TestHighResFetchLayout checks that HIGHRES_FETCH is FETCH with another
// type code, as libpcp builds both with one function.
func TestHighResFetchLayout(t *testing.T) {
	pmids := []pcp.PMID{pmidSampleLongOne, pmidSampleDoubleOne}
	hr := mustPDU(&HighResFetch{Context: 2, PMIDs: pmids}, 4)
	lr := mustPDU(&Fetch{Context: 2, PMIDs: pmids}, 4)
	if !bytes.Equal(hr[:4], lr[:4]) || !bytes.Equal(hr[8:], lr[8:]) {
		t.Errorf("HIGHRES_FETCH %x differs from FETCH %x beyond the type", hr, lr)
	}
	var m HighResFetch
	if err := m.Decode(hr); err != nil || m.Context != 2 || !slices.Equal(m.PMIDs, pmids) {
		t.Errorf("decoded %+v, %v", m, err)
	}
	expectIPC(t, new(HighResFetch), map[string][]byte{
		"FETCH type": lr,
		"no PMIDs":   mustPDU(&HighResFetch{}, 0),
	})
}

func FuzzDecodeHighResFetch(f *testing.F) {
	fuzzCodec[HighResFetch](f, TypeHighResFetch, mustPDU(&HighResFetch{PMIDs: []pcp.PMID{7}}, 0))
}
