package pdu

import (
	"encoding/binary"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// TestHighResMissedCountOnWire pins a libpcp quirk that PCP's clients
// see: the count of a missed-records record goes on the wire as zero in a
// high-resolution event array, and unchanged in a legacy one.
func TestHighResMissedCountOnWire(t *testing.T) {
	ne := binary.NativeEndian
	for _, tc := range []struct {
		highres bool
		typ     pcp.Type
		want    uint32
	}{
		{false, pcp.TypeEvent, 7000},
		{true, pcp.TypeHighResEvent, 0},
	} {
		b := ne.AppendUint32(nil, 1)
		if tc.highres {
			b = ne.AppendUint64(b, 1700000000)
			b = ne.AppendUint64(b, 5)
		} else {
			b = ne.AppendUint32(b, 1700000000)
			b = ne.AppendUint32(b, 5)
		}
		b = ne.AppendUint32(b, eventFlagMissed)
		b = ne.AppendUint32(b, 7000)
		r := &pcp.Result{Sets: []pcp.ValueSet{{
			PMID: pcp.NewPMID(29, 0, 136), NumVal: 1, ValFmt: pcp.ValDPtr,
			Values: []pcp.Value{{Inst: pcp.InstNull, Block: pcp.ValueBlock{Type: tc.typ, Data: b}}},
		}}}
		got := new(pcp.Result)
		if err := DecodeResultInto(got, AppendResult(nil, 1, r)); err != nil {
			t.Fatal(err)
		}
		d := got.Sets[0].Values[0].Block.Data
		if n := ne.Uint32(d[len(d)-4:]); n != tc.want {
			t.Errorf("%v: missed count after the wire %d, want %d", tc.typ, n, tc.want)
		}
	}
}
