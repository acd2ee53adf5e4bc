package pdu

import "testing"

// sampleLongOneText is sample.long.one's one-line help as `pminfo -t`
// prints it.
const sampleLongOneText = "1 as a 32-bit integer"

func TestTextReqCaptured(t *testing.T) {
	for _, m := range decodeCaptured[TextReq](t) {
		if m.Type&TextDirect != 0 {
			t.Errorf("%+v: PCP never sends TextDirect", m)
		}
		if (m.Type&TextPMID != 0) == (m.Type&TextInDom != 0) {
			t.Errorf("%+v: neither or both of TextPMID and TextInDom", m)
		}
	}
}

// TestTextCaptured checks the one-line help of sample.long.one, and so the
// byte order of the identifier, which PCP sends unconverted.
func TestTextCaptured(t *testing.T) {
	found := false
	for _, m := range decodeCaptured[Text](t) {
		if m.Ident == uint32(sampleLongOne.PMID) && m.Text == sampleLongOneText {
			found = true
		}
	}
	if !found {
		t.Errorf("no TEXT %q for %v", sampleLongOneText, sampleLongOne.PMID)
	}
}

func TestTextReqDropsDirect(t *testing.T) {
	a := (&TextReq{Ident: 7, Type: TextOneLine | TextPMID | TextDirect}).Append(nil, 0)
	b := (&TextReq{Ident: 7, Type: TextOneLine | TextPMID}).Append(nil, 0)
	if string(a) != string(b) {
		t.Errorf("TextDirect sent: %x", a)
	}
}

func TestTextMalformed(t *testing.T) {
	req := (&TextReq{Ident: uint32(sampleLongOne.PMID), Type: TextHelp | TextPMID}).Append(nil, 0)
	text := (&Text{Ident: uint32(sampleLongOne.PMID), Text: sampleLongOneText}).Append(nil, 0)
	runMalformed(t, []malformed{
		{"req short", resized(req, len(req)-4)},
		{"req long", resized(req, len(req)+4)},
		{"text no length", resized(text, 16)},
		{"text length negative", patched(text, 16, 0xffffffff)},
		{"text length lies high", patched(text, 16, 25)},
		{"text length lies low", patched(text, 16, 4)},
		{"text length huge", patched(text, 16, 0x7ffffffe)},
		{"text padding missing", resized(text, 20+len(sampleLongOneText))},
		{"text wrong type", patched(text, 4, uint32(TypeTextReq))},
	})
}
