package pdu

import (
	"slices"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// Facts about PCP 6.0.3's sample agent, from `pminfo -m -d -f` against it.
var (
	pmidSampleLongOne      = pcp.NewPMID(29, 0, 10)  // sample.long.one: 32-bit, value 1
	pmidSampleLongMillion  = pcp.NewPMID(29, 0, 13)  // sample.long.million: 32-bit, value 1000000
	pmidSampleFloatOne     = pcp.NewPMID(29, 0, 15)  // sample.float.one: float, value 1
	pmidSampleLongLongOne  = pcp.NewPMID(29, 0, 20)  // sample.longlong.one: 64-bit, value 1
	pmidSampleDoubleOne    = pcp.NewPMID(29, 0, 25)  // sample.double.one: double, value 1
	pmidSampleStringHullo  = pcp.NewPMID(29, 0, 31)  // sample.string.hullo: string "hullo world!"
	pmidSampleAggregate    = pcp.NewPMID(29, 0, 34)  // sample.aggregate.hullo: aggregate "hullo world!"
	pmidSampleULLMillion   = pcp.NewPMID(29, 0, 101) // sample.ulonglong.million: u64, value 1000000
	pmidSampleColour       = pcp.NewPMID(29, 0, 5)   // sample.colour: 32-bit, indom 29.1 (red 0, green 1, blue 2)
	pmidSampleEvents       = pcp.NewPMID(29, 0, 136) // sample.event.records: event, indom 29.10
	pmidSampleHighResEvent = pcp.NewPMID(29, 0, 139) // sample.event.highres_records: highres event, indom 29.10
	indomSampleColour      = pcp.NewInDom(29, 1)
)

// checkCapturedFetches decodes every captured fetch PDU of type typ and
// reports whether one asks for sample.long.one.
func checkCapturedFetches(t *testing.T, typ Type, decode func([]byte) (int32, []pcp.PMID, error)) (longOne bool) {
	for _, p := range goldenOfType(t, typ) {
		ctx, pmids, err := decode(p.b)
		if err != nil {
			t.Errorf("%s: %v", p.where(), err)
			continue
		}
		if ctx < 0 || len(pmids) == 0 {
			t.Errorf("%s: context %d, %d PMIDs", p.where(), ctx, len(pmids))
		}
		longOne = longOne || slices.Contains(pmids, pmidSampleLongOne)
	}
	return longOne
}

func decodeFetchPMIDs(b []byte) (int32, []pcp.PMID, error) {
	var m Fetch
	err := m.Decode(b)
	return m.Context, m.PMIDs, err
}

func decodeHighResFetchPMIDs(b []byte) (int32, []pcp.PMID, error) {
	var m HighResFetch
	err := m.Decode(b)
	return m.Context, m.PMIDs, err
}

// TestFetchCaptured decodes the captured FETCH and HIGHRES_FETCH PDUs:
// one of them must ask for sample.long.one.
func TestFetchCaptured(t *testing.T) {
	a := checkCapturedFetches(t, TypeFetch, decodeFetchPMIDs)
	b := checkCapturedFetches(t, TypeHighResFetch, decodeHighResFetchPMIDs)
	if !a && !b {
		t.Errorf("no captured fetch asks for sample.long.one (%d.%d.%d)",
			pmidSampleLongOne.Domain(), pmidSampleLongOne.Cluster(), pmidSampleLongOne.Item())
	}
}

func TestFetchRoundTrip(t *testing.T) {
	m := Fetch{Context: 3, PMIDs: []pcp.PMID{pmidSampleLongOne, pcp.PMIDNull, pmidSampleColour}}
	b := mustPDU(&m, 9)
	if len(b) != HeaderSize+16+4*len(m.PMIDs) {
		t.Fatalf("%d PMIDs encoded in %d bytes", len(m.PMIDs), len(b))
	}
	got := Fetch{PMIDs: make([]pcp.PMID, 10)}
	if err := got.Decode(b); err != nil || got.Context != 3 || !slices.Equal(got.PMIDs, m.PMIDs) {
		t.Errorf("decoded %+v, %v", got, err)
	}
	if allocs := testing.AllocsPerRun(100, func() { got.Decode(b) }); allocs != 0 {
		t.Errorf("decoding into a used Fetch allocates %v times", allocs)
	}
}

func TestFetchDecodeBad(t *testing.T) {
	one := mustPDU(&Fetch{PMIDs: []pcp.PMID{1}}, 0)
	expectIPC(t, new(Fetch), map[string][]byte{
		"no PMIDs":      mustPDU(&Fetch{}, 0),
		"PMID missing":  shrunk(one, 4),
		"bytes left":    grown(one, 4),
		"no count":      shrunk(one, 8),
		"huge count":    func() []byte { b := bytesClone(one); b[24] = 0x7f; return b }(),
		"high-res type": mustPDU(&HighResFetch{PMIDs: []pcp.PMID{1}}, 0),
	})
}

func bytesClone(b []byte) []byte { return append([]byte(nil), b...) }

func FuzzDecodeFetch(f *testing.F) {
	fuzzCodec[Fetch](f, TypeFetch, mustPDU(&Fetch{Context: 1, PMIDs: []pcp.PMID{1, 2}}, 0))
}
