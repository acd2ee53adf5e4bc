package pdu

import (
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// sampleLongOne is sample.long.one as `pminfo -d` describes it: PMID
// 29.0.10, a 32-bit integer with no instance domain, instantaneous, no
// units.
var sampleLongOne = pcp.Desc{
	PMID:  pcp.NewPMID(29, 0, 10),
	Type:  pcp.Type32,
	InDom: pcp.InDomNull,
	Sem:   pcp.SemInstant,
}

func TestDescReqCaptured(t *testing.T) {
	found := false
	for _, m := range decodeCaptured[DescReq](t) {
		found = found || m.PMID == sampleLongOne.PMID
	}
	if !found {
		t.Errorf("no DESC_REQ for %v", sampleLongOne.PMID)
	}
}

func TestDescCaptured(t *testing.T) {
	found := false
	for _, m := range decodeCaptured[Desc](t) {
		if m.Desc.PMID == sampleLongOne.PMID {
			found = true
			if m.Desc != sampleLongOne {
				t.Errorf("got %+v, want %+v", m.Desc, sampleLongOne)
			}
		}
	}
	if !found {
		t.Errorf("no DESC for %v", sampleLongOne.PMID)
	}
}

func TestDescMalformed(t *testing.T) {
	req := (&DescReq{PMID: sampleLongOne.PMID}).Append(nil, 0)
	desc := (&Desc{Desc: sampleLongOne}).Append(nil, 0)
	runMalformed(t, []malformed{
		{"req short", resized(req, len(req)-1)},
		{"req long", resized(req, len(req)+4)},
		{"req header only", resized(req, HeaderSize)},
		{"desc short", resized(desc, len(desc)-4)},
		{"desc long", resized(desc, len(desc)+4)},
		{"desc header lies", patched(desc, 0, uint32(len(desc)+4))},
		{"desc wrong type", patched(desc, 4, uint32(TypeDescReq))},
	})
}
