package pdu

import (
	"bytes"
	"testing"
)

// TestAttrCaptured decodes every captured ATTR PDU. libpcp sends the value
// without padding and pmcd forwards it with its NUL, so the captured
// lengths need not be multiples of 4.
func TestAttrCaptured(t *testing.T) {
	for _, p := range goldenOfType(t, TypeAttr) {
		var m Attr
		if err := m.Decode(p.b); err != nil {
			t.Errorf("%s: %v", p.where(), err)
			continue
		}
		if m.Key < AttrNone || m.Key > AttrExclusive {
			t.Errorf("%s: unknown attribute %d", p.where(), m.Key)
		}
		if len(m.Value) != len(p.b)-HeaderSize-4 {
			t.Errorf("%s: value of %d bytes in a %d-byte PDU", p.where(), len(m.Value), len(p.b))
		}
	}
}

func TestAttrRoundTrip(t *testing.T) {
	for _, m := range []Attr{
		{Key: AttrContainer, Value: []byte("abc\x00")},
		{Key: AttrUserAuth},
		{Key: AttrNone, Value: bytes.Repeat([]byte{'x'}, MaxAttrLen-1)},
	} {
		b := mustPDU(&m, 3)
		if len(b) != HeaderSize+4+len(m.Value) {
			t.Errorf("%d-byte value encoded in %d bytes", len(m.Value), len(b))
		}
		got := Attr{Value: []byte("stale")}
		if err := got.Decode(b); err != nil || got.Key != m.Key || !bytes.Equal(got.Value, m.Value) {
			t.Errorf("%v %q: decoded %v %q, %v", m.Key, m.Value, got.Key, got.Value, err)
		}
		b[len(b)-1] ^= 1
		if len(got.Value) > 0 && got.Value[len(got.Value)-1] == b[len(b)-1] {
			t.Error("decoded value aliases the PDU")
		}
	}
}

func TestAttrDecodeBad(t *testing.T) {
	expectIPC(t, new(Attr), map[string][]byte{
		"no key":       shrunk(mustPDU(&Attr{}, 0), 4),
		"value at max": mustPDU(&Attr{Key: AttrNone, Value: make([]byte, MaxAttrLen)}, 0),
		"wrong type":   mustPDU(&Error{}, 0),
	})
}

func FuzzDecodeAttr(f *testing.F) {
	fuzzCodec[Attr](f, TypeAttr, mustPDU(&Attr{Key: AttrContainer, Value: []byte("c\x00")}, 0))
}
