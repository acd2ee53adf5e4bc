package wire

import (
	"encoding/binary"
	"fmt"

	"github.com/gopcp/gopcp/pcp"
)

// LabelLayout is one of the two layouts PCP gives a label set, with the
// limits libpcp 6.0.3 checks in it. libpcp's two decoders disagree by one
// at both limits, and gopcp follows each, so the limits belong to the
// layout: PDULabels and ArchiveLabels are the only values.
type LabelLayout struct {
	inline    bool  // the JSON follows the instance, before the count
	maxLabels int32 // the largest label count accepted
	maxJSON   int32 // the largest JSON length accepted
}

var (
	// PDULabels is a set in a LABEL PDU: instance, label count, JSON
	// offset and length, labels, the JSON lying after all the sets.
	// __pmDecodeLabel refuses a count of PM_MAXLABELS or more and a JSON
	// length of PM_MAXLABELJSONLEN or more.
	PDULabels = &LabelLayout{maxLabels: pcp.MaxLabels - 1, maxJSON: pcp.MaxLabelJSONLen - 1}

	// ArchiveLabels is a set in an archive's label record: instance,
	// JSON length, JSON, label count, labels. __pmLogLoadLabelSet
	// refuses only a count above PM_MAXLABELS and a JSON length above
	// PM_MAXLABELJSONLEN.
	ArchiveLabels = &LabelLayout{inline: true, maxLabels: pcp.MaxLabels, maxJSON: pcp.MaxLabelJSONLen}
)

// LabelSize is the size of one label, pmLabel: name offset (16 bits),
// name length (8), flags (8), value offset (16), value length (16).
const LabelSize = 8

// JSONRef is where a set of the PDU layout says its JSON is: Off and Len
// as the set gives them, At the offset of the JSON offset field (for
// errors; the length field follows it).
type JSONRef struct{ At, Off, Len int }

// LabelSet reads one label set of layout l into s. A label count above
// the layout's limit or beyond what the bytes left could hold, and a JSON
// length outside 0 to the limit, fail at their field; a negative count is
// a PCP error code standing for the set's labels, and none follow. In the
// archive layout s.JSON is read; in the PDU layout it is left to the
// caller, who has its JSONRef. s.Compound stays false: neither layout
// carries it.
func (d *Decoder) LabelSet(l *LabelLayout, s *pcp.LabelSet) JSONRef {
	var ref JSONRef
	*s = pcp.LabelSet{Inst: d.I32("instance")}
	var countAt int
	if l.inline {
		at := d.Off
		n := d.I32("JSON length")
		if d.jsonLen(l, at, n) {
			s.JSON = string(d.Bytes(int(n), "JSON"))
		}
		countAt = d.Off
		s.NLabels = d.I32("label count")
		d.labelCount(l, countAt, s.NLabels)
	} else {
		countAt = d.Off
		s.NLabels = d.I32("label count")
		ref.At = d.Off
		ref.Off = int(d.I32("JSON offset"))
		n := d.I32("JSON length")
		ref.Len = int(n)
		d.labelCount(l, countAt, s.NLabels)
		d.jsonLen(l, ref.At+4, n)
	}
	if d.Err != nil || s.NLabels <= 0 {
		return ref
	}
	s.Labels = make([]pcp.Label, s.NLabels)
	for i := range s.Labels {
		b := d.Bytes(LabelSize, "label")
		if b == nil {
			break
		}
		s.Labels[i] = pcp.Label{
			Name:     d.u16(b),
			NameLen:  b[2],
			Flags:    b[3],
			Value:    d.u16(b[4:]),
			ValueLen: d.u16(b[6:]),
		}
	}
	return ref
}

// labelCount checks a label count read at at against l's limit and the
// bytes left.
func (d *Decoder) labelCount(l *LabelLayout, at int, n int32) {
	if d.Err == nil && n > l.maxLabels {
		d.Fail(at, fmt.Sprintf("label count %d is above %d", n, l.maxLabels))
	}
	d.Room(at, n, LabelSize, "label count")
}

// jsonLen checks a JSON length read at at against l's limit.
func (d *Decoder) jsonLen(l *LabelLayout, at int, n int32) bool {
	if d.Err == nil && (n < 0 || n > l.maxJSON) {
		d.Fail(at, fmt.Sprintf("JSON length %d outside 0..%d", n, l.maxJSON))
	}
	return d.Err == nil
}

func (d *Decoder) u16(b []byte) uint16 {
	if d.Little {
		return binary.LittleEndian.Uint16(b)
	}
	return binary.BigEndian.Uint16(b)
}
