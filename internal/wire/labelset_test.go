package wire

import (
	"encoding/binary"
	"errors"
	"reflect"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// appendArchiveSet encodes s in the archive layout.
func appendArchiveSet(b []byte, s *pcp.LabelSet) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(s.Inst))
	b = binary.BigEndian.AppendUint32(b, uint32(len(s.JSON)))
	b = append(b, s.JSON...)
	b = binary.BigEndian.AppendUint32(b, uint32(s.NLabels))
	for _, l := range s.Labels {
		b = binary.BigEndian.AppendUint16(b, l.Name)
		b = append(b, l.NameLen, l.Flags)
		b = binary.BigEndian.AppendUint16(b, l.Value)
		b = binary.BigEndian.AppendUint16(b, l.ValueLen)
	}
	return b
}

// appendPDUSet encodes s in the PDU layout, its JSON said to be at off.
func appendPDUSet(b []byte, s *pcp.LabelSet, off int) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(s.Inst))
	b = binary.BigEndian.AppendUint32(b, uint32(s.NLabels))
	b = binary.BigEndian.AppendUint32(b, uint32(off))
	b = binary.BigEndian.AppendUint32(b, uint32(len(s.JSON)))
	for _, l := range s.Labels {
		b = binary.BigEndian.AppendUint16(b, l.Name)
		b = append(b, l.NameLen, l.Flags)
		b = binary.BigEndian.AppendUint16(b, l.Value)
		b = binary.BigEndian.AppendUint16(b, l.ValueLen)
	}
	return b
}

func labels(n int) []pcp.Label {
	out := make([]pcp.Label, n)
	for i := range out {
		out[i] = pcp.Label{Name: 2, NameLen: 1, Flags: 0, Value: 5, ValueLen: 1}
	}
	return out
}

// TestLabelSetLimits reads sets at and beyond each layout's limits (the
// rules libpcp 6.0.3 applies, checked against libpcp itself by archive's
// TestLabelSetBoundary): a failure is at the offset of the field.
func TestLabelSetLimits(t *testing.T) {
	json := `{"a":1}`
	for _, tc := range []struct {
		name   string
		layout *LabelLayout
		n      int
		jsonAt int // a JSON length other than len(json), with the JSON as long
		failAt int // -1 for none
	}{
		{"pdu 254 labels", PDULabels, 254, 0, -1},
		{"pdu 255 labels", PDULabels, 255, 0, 4},
		{"pdu error code", PDULabels, int(pcp.ErrLabel), 0, -1},
		{"pdu JSON 65534", PDULabels, 1, 65534, -1},
		{"pdu JSON 65535", PDULabels, 1, 65535, 12},
		{"archive 255 labels", ArchiveLabels, 255, 0, -1},
		{"archive 256 labels", ArchiveLabels, 256, 0, 8 + 7},
		{"archive error code", ArchiveLabels, int(pcp.ErrLabel), 0, -1},
		{"archive JSON 65535", ArchiveLabels, 1, 65535, -1},
		{"archive JSON 65536", ArchiveLabels, 1, 65536, 4},
	} {
		s := pcp.LabelSet{Inst: 3, NLabels: int32(tc.n), JSON: json}
		if tc.jsonAt > 0 {
			s.JSON = json + string(make([]byte, tc.jsonAt-len(json)))
		}
		if tc.n > 0 {
			s.Labels = labels(tc.n)
		}
		var b []byte
		if tc.layout == ArchiveLabels {
			b = appendArchiveSet(nil, &s)
		} else {
			b = appendPDUSet(nil, &s, 99)
		}
		d := New(b, false)
		var got pcp.LabelSet
		ref := d.LabelSet(tc.layout, &got)
		var we *Error
		switch {
		case tc.failAt < 0 && d.Err != nil:
			t.Errorf("%s: %v", tc.name, d.Err)
		case tc.failAt >= 0 && (!errors.As(d.Err, &we) || we.Offset != tc.failAt):
			t.Errorf("%s: error %v, want one at %d", tc.name, d.Err, tc.failAt)
		case tc.failAt < 0:
			if tc.layout == PDULabels {
				if ref.Off != 99 || ref.Len != len(s.JSON) || ref.At != 8 {
					t.Errorf("%s: JSON reference %+v", tc.name, ref)
				}
				got.JSON = s.JSON
			}
			if !reflect.DeepEqual(got, s) {
				t.Errorf("%s: read %+v", tc.name, got)
			}
			if d.Remaining() != 0 {
				t.Errorf("%s: %d bytes left", tc.name, d.Remaining())
			}
		}
	}
}

func FuzzLabelSet(f *testing.F) {
	s := pcp.LabelSet{Inst: -1, NLabels: 2, JSON: `{"a":1,"b":2}`, Labels: labels(2)}
	f.Add(appendArchiveSet(nil, &s), true)
	f.Add(appendPDUSet(nil, &s, 40), false)
	s.NLabels, s.Labels = int32(pcp.ErrLabel), nil
	f.Add(appendArchiveSet(nil, &s), true)
	f.Add(appendPDUSet(nil, &s, 40), false)
	f.Fuzz(func(t *testing.T, b []byte, archive bool) {
		layout := PDULabels
		if archive {
			layout = ArchiveLabels
		}
		d := New(b, false)
		var got pcp.LabelSet
		ref := d.LabelSet(layout, &got)
		if d.Off > len(b) {
			t.Fatalf("offset %d past %d bytes", d.Off, len(b))
		}
		if d.Err != nil {
			var we *Error
			if !errors.As(d.Err, &we) || we.Offset < 0 || we.Offset > len(b) {
				t.Fatalf("error %v outside the input", d.Err)
			}
			return
		}
		if got.NLabels > layout.maxLabels || len(got.Labels) != max(int(got.NLabels), 0) {
			t.Fatalf("%d labels, count %d", len(got.Labels), got.NLabels)
		}
		// What reads writes back to the bytes read.
		var again []byte
		if archive {
			again = appendArchiveSet(nil, &got)
		} else {
			got.JSON = string(make([]byte, ref.Len))
			again = appendPDUSet(nil, &got, ref.Off)
		}
		if string(again) != string(b[:d.Off]) {
			t.Fatalf("set re-encodes as %x, read from %x", again, b[:d.Off])
		}
	})
}
