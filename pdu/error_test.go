package pdu

import (
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// TestErrorCaptured decodes every captured ERROR PDU. Each client
// connection to pmcd opens with pmcd's greeting, the extended form; pmcd
// and agents send only codes of 0 or below. (pmlogger greets pmlc with a
// short ERROR carrying its LOG_PDU_VERSION, a positive number.)
func TestErrorCaptured(t *testing.T) {
	for _, p := range goldenOfType(t, TypeError) {
		var m Error
		if err := m.Decode(p.b); err != nil {
			t.Errorf("%s: %v", p.where(), err)
			continue
		}
		if m.Extended != (len(p.b) == extendedErrorLen) {
			t.Errorf("%s: Extended = %v for %d bytes", p.where(), m.Extended, len(p.b))
		}
		if (p.toPMCD || p.toAgent) && m.Code > 0 {
			t.Errorf("%s: positive code %d", p.where(), m.Code)
		}
	}
	greetings := 0
	for _, f := range loadGolden(t) {
		if !f.toPMCD() || len(f.pdus) == 0 {
			continue
		}
		greetings++
		p := f.pdus[0]
		var m Error
		if err := m.Decode(p.b); err != nil || p.connector || p.h.Type != TypeError {
			t.Errorf("%s: %v PDU from connector %v first, not pmcd's greeting (%v)", p.where(), p.h.Type, p.connector, err)
			continue
		}
		if !m.Extended || m.Code != 0 {
			t.Errorf("%s: greeting %+v, want the extended form with code 0", p.where(), m)
		}
	}
	if greetings == 0 {
		t.Error("no capture of a client connection to pmcd")
	}
}

func TestErrorRoundTrip(t *testing.T) {
	for _, m := range []Error{
		{Code: int32(pcp.ErrPMID)},
		{Code: 0, Datum: 0x02010e44, Extended: true},
		{Code: -12387 + 11345, Extended: true},
	} {
		b := mustPDU(&m, 7)
		var got Error
		if err := got.Decode(b); err != nil || got != m {
			t.Errorf("%+v: decoded %+v, %v", m, got, err)
		}
	}
}

func TestErrorDecodeBad(t *testing.T) {
	short := mustPDU(&Error{Code: -1}, 0)
	expectIPC(t, new(Error), map[string][]byte{
		"header only":      shrunk(short, 4),
		"12 bytes of body": grown(short, 8),
		"2 bytes of body":  shrunk(grown(short, 4), 6),
		"length lies":      withLen(short, 20),
		"wrong type":       mustPDU(&Creds{Creds: []Cred{{Type: CredVersion}}}, 0),
	})
}

// TestErrorV1Numbers checks the renumbering pmcd applies to its greeting:
// PCP 1.x codes are today's plus 11345 (PM_ERR_BASE2 - PM_ERR_BASE1).
func TestErrorV1Numbers(t *testing.T) {
	for _, tc := range []struct{ v2, v1 int32 }{
		{0, 0},
		{-13, -13}, // an errno, EACCES
		{int32(pcp.ErrGeneric), -1000},
		{int32(pcp.ErrPermission), -1042},
		{int32(pcp.ErrConnLimit), -1043},
	} {
		if got := errToV1(tc.v2); got != tc.v1 {
			t.Errorf("errToV1(%d) = %d, want %d", tc.v2, got, tc.v1)
		}
		if got := errFromV1(tc.v1); got != tc.v2 {
			t.Errorf("errFromV1(%d) = %d, want %d", tc.v1, got, tc.v2)
		}
	}
}

func FuzzDecodeError(f *testing.F) {
	fuzzCodec[Error](f, TypeError, mustPDU(&Error{Code: -1}, 0), mustPDU(&Error{Extended: true}, 0))
}
