package pdu

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strconv"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// metaTypes are the PDU types of desc.go, descs.go, instance.go, text.go,
// pmns.go, label.go and logctl.go, which these tests cover.
var metaTypes = []Type{
	TypeDescReq, TypeDesc, TypeDescIDs, TypeDescs,
	TypeInstanceReq, TypeInstance, TypeTextReq, TypeText,
	TypePMNSIDs, TypePMNSNames, TypePMNSChild, TypePMNSTraverse,
	TypeLabelReq, TypeLabel,
	TypeLogControl, TypeLogStatusV2, TypeLogRequest, TypeLogStatus,
}

func isMetaType(t Type) bool {
	for _, m := range metaTypes {
		if m == t {
			return true
		}
	}
	return false
}

// decodeCaptured decodes every captured PDU of M's type into a fresh M,
// checks that it encodes back to the same bytes (after bytes already in
// the buffer, which must be left alone), and returns the decoded values
// for the caller to check against what PCP's tools say. Having no
// captured PDU of the type fails t.
func decodeCaptured[M any, P interface {
	*M
	Message
}](t *testing.T) []*M {
	t.Helper()
	typ := P(new(M)).PDUType()
	captured := goldenOfType(t, typ)
	if len(captured) == 0 {
		t.Fatalf("no %v PDU in testdata/captures", typ)
	}
	var out []*M
	prefix := []byte("prefix")
	for _, p := range captured {
		m := P(new(M))
		if err := m.Decode(p.b); err != nil {
			t.Errorf("%s: %v", p.where(), err)
			continue
		}
		got := m.Append(bytes.Clone(prefix), p.h.From)
		if !bytes.HasPrefix(got, prefix) || !bytes.Equal(got[len(prefix):], p.b) {
			t.Errorf("%s: re-encoded\n got %x\nwant %x", p.where(), got, p.b)
		}
		out = append(out, (*M)(m))
	}
	return out
}

// TestMetaCapturesDamaged cuts each captured PDU of the covered types short
// at every length, and lengthens it by a word, patching the header to
// match: none of these may decode, and each must fail with an error
// wrapping pcp.ErrIPC.
func TestMetaCapturesDamaged(t *testing.T) {
	for _, c := range loadGolden(t) {
		for _, p := range c.pdus {
			if !isMetaType(p.h.Type) {
				continue
			}
			for n := 0; n < len(p.b); n++ {
				b := bytes.Clone(p.b[:n])
				if n >= 4 {
					binary.BigEndian.PutUint32(b, uint32(n))
				}
				checkIPCError(t, p.where()+" cut to "+strconv.Itoa(n), b)
			}
			checkIPCError(t, p.where()+" lengthened", grown(p.b, 4))
		}
	}
}

// checkIPCError decodes b with the dispatcher and, if its header names a
// known type, with that type's decoder, expecting both to fail with
// pcp.ErrIPC.
func checkIPCError(t *testing.T, what string, b []byte) {
	t.Helper()
	if _, err := Decode(b); !errors.Is(err, pcp.ErrIPC) {
		t.Errorf("%s: Decode error %v, want pcp.ErrIPC", what, err)
	}
	if len(b) < 8 {
		return
	}
	if m := newMessage(Type(binary.BigEndian.Uint32(b[4:]))); m != nil {
		if err := m.Decode(b); !errors.Is(err, pcp.ErrIPC) {
			t.Errorf("%s: type's Decode error %v, want pcp.ErrIPC", what, err)
		}
	}
}

// malformed is one hand-damaged PDU for a table test.
type malformed struct {
	name string
	b    []byte
}

// runMalformed checks that none of the cases decodes, each failing with
// pcp.ErrIPC.
func runMalformed(t *testing.T, cases []malformed) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { checkIPCError(t, c.name, c.b) })
	}
}

// patched returns a copy of b with the big-endian word at off set to v.
func patched(b []byte, off int, v uint32) []byte {
	c := bytes.Clone(b)
	binary.BigEndian.PutUint32(c[off:], v)
	return c
}

// resized returns b cut or zero-extended to n bytes, its header length
// set to match.
func resized(b []byte, n int) []byte {
	c := make([]byte, n)
	copy(c, b)
	binary.BigEndian.PutUint32(c, uint32(n))
	return c
}

// FuzzMeta feeds arbitrary bytes, seeded with the captured PDUs of the
// covered types, to the dispatcher. The header's length is made right so
// the fuzzer spends its time on bodies, and other types are left to their
// own targets. A PDU must either fail with pcp.ErrIPC or decode to a
// message whose encoding decodes again to the same encoding.
func FuzzMeta(f *testing.F) {
	for _, typ := range metaTypes {
		for _, s := range goldenSeeds(typ, 8) {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) >= 8 {
			binary.BigEndian.PutUint32(b, uint32(len(b)))
			if !isMetaType(Type(binary.BigEndian.Uint32(b[4:]))) {
				return
			}
		}
		m, err := Decode(b)
		if err != nil {
			if !errors.Is(err, pcp.ErrIPC) {
				t.Fatalf("error %v does not wrap pcp.ErrIPC", err)
			}
			return
		}
		once := m.Append(nil, 7)
		m2, err := Decode(once)
		if err != nil {
			t.Fatalf("re-encoding %x does not decode: %v", once, err)
		}
		if twice := m2.Append(nil, 7); !bytes.Equal(once, twice) {
			t.Fatalf("encoding is not stable:\n%x\n%x", once, twice)
		}
	})
}

// Per-type targets for the decoders with nested counts and offsets, where
// undirected bytes rarely get deep.
func FuzzDecodeInstance(f *testing.F)   { fuzzCodec[Instance](f, TypeInstance) }
func FuzzDecodePMNSNames(f *testing.F)  { fuzzCodec[PMNSNames](f, TypePMNSNames) }
func FuzzDecodeLabel(f *testing.F)      { fuzzCodec[Label](f, TypeLabel) }
func FuzzDecodeLogControl(f *testing.F) { fuzzCodec[LogControl](f, TypeLogControl) }
func FuzzDecodeLogStatus(f *testing.F)  { fuzzCodec[LogStatus](f, TypeLogStatus) }
