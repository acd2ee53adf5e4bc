package pdu

import (
	"testing"
)

// TestCredsCaptured decodes every captured CREDS PDU: each holds one
// version credential, for protocol version 2 between clients, pmcd and
// agents. (pmlc tells pmlogger its LOG_PDU_VERSION the same way.)
func TestCredsCaptured(t *testing.T) {
	for _, p := range goldenOfType(t, TypeCreds) {
		var m Creds
		if err := m.Decode(p.b); err != nil {
			t.Errorf("%s: %v", p.where(), err)
			continue
		}
		if len(m.Creds) != 1 {
			t.Errorf("%s: %d credentials, want 1", p.where(), len(m.Creds))
			continue
		}
		v, ok := m.Creds[0].Version()
		if !ok || ((p.toPMCD || p.toAgent) && v.Version != PDUVersion2) {
			t.Errorf("%s: credential %+v is not a version 2 CVERSION", p.where(), m.Creds[0])
		}
		if p.h.From <= 0 {
			t.Errorf("%s: sender %d, want a pid", p.where(), p.h.From)
		}
	}
}

func TestCredPacking(t *testing.T) {
	c := VersionCred{Version: PDUVersion2, Flags: FlagAuth | FlagContainer | FlagDescs}.Cred()
	if got := UnpackCred(c.Pack()); got != c {
		t.Errorf("UnpackCred(Pack(%+v)) = %+v", c, got)
	}
	// CVERSION in the top byte, version next, flags in the low 16 bits:
	// the layout of __pmVersionCred once swapped to network order.
	if got, want := c.Pack(), uint32(0x01020844); got != want {
		t.Errorf("Pack = %#x, want %#x", got, want)
	}
	if _, ok := (Cred{Type: 7}).Version(); ok {
		t.Error("a credential of type 7 read as a version credential")
	}
}

func TestCredsDecodeBad(t *testing.T) {
	one := mustPDU(VersionCreds(0), 1)
	many := make([]Cred, maxCreds+1)
	expectIPC(t, new(Creds), map[string][]byte{
		"no count":       shrunk(one, 8),
		"count too big":  shrunk(one, 4),
		"bytes left":     grown(one, 4),
		"negative count": func() []byte { b := grown(shrunk(one, 8), 4); b[12] = 0xff; return b }(),
		"over 1024":      mustPDU(&Creds{Creds: many}, 1),
		"wrong type":     mustPDU(&Error{}, 0),
	})
	var m Creds
	if err := m.Decode(mustPDU(&Creds{}, 1)); err != nil || len(m.Creds) != 0 {
		t.Errorf("empty CREDS: %v, %d creds", err, len(m.Creds))
	}
}

func FuzzDecodeCreds(f *testing.F) {
	fuzzCodec[Creds](f, TypeCreds, mustPDU(VersionCreds(FlagAuth), 5))
}
