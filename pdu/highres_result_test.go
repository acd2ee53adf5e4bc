package pdu

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

func TestHighResResultRoundTrip(t *testing.T) {
	want := mixedResult()
	want.Timestamp = pcp.Timestamp{Sec: 1 << 40, Nsec: 999999999}
	b := AppendHighResResult(nil, 42, want)
	got := new(pcp.Result)
	if err := DecodeHighResResultInto(got, b); err != nil {
		t.Fatal(err)
	}
	sameResult(t, got, want)
	if again := AppendHighResResult(nil, 42, got); !bytes.Equal(again, b) {
		t.Errorf("re-encoding differs:\n%x\n%x", again, b)
	}
	// The value sets are laid out as in RESULT, shifted by the longer
	// fixed part; block offsets count from the PDU's start.
	lr := AppendResult(nil, 42, want)
	if got, want := binary.BigEndian.Uint32(b[12:]), uint32(len(want.Sets)); got != want {
		t.Errorf("numpmid %d first, want %d", got, want)
	}
	if len(b)-len(lr) != 8 {
		t.Errorf("HIGHRES_RESULT is %d bytes, RESULT %d: want 8 more", len(b), len(lr))
	}
}

func TestHighResResultDecodeBad(t *testing.T) {
	good := AppendHighResResult(nil, 0, &pcp.Result{Sets: []pcp.ValueSet{{PMID: 1, NumVal: 0}}})
	nsec := bytesClone(good)
	binary.BigEndian.PutUint64(nsec[24:], 1e9)
	neg := bytesClone(good)
	binary.BigEndian.PutUint64(neg[24:], 1<<63)
	count := bytesClone(good)
	binary.BigEndian.PutUint32(count[12:], 2)
	expectIPC(t, new(HighResResult), map[string][]byte{
		"nanoseconds 1e9":      nsec,
		"negative nanoseconds": neg,
		"count too big":        count,
		"timestamp cut":        shrunk(good, 16),
		"bytes left":           grown(good, 4),
		"RESULT type":          AppendResult(nil, 0, &pcp.Result{}),
	})
}

func FuzzDecodeHighResResult(f *testing.F) {
	fuzzCodec[HighResResult](f, TypeHighResResult, AppendHighResResult(nil, 0, mixedResult()))
}
