package archive

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// boundarySet is a label set of n labels (n may be a negative error code)
// whose JSON is jsonLen bytes: {"a":1} padded with blanks, every label
// naming its "a" and 1, so that it lies within the JSON.
func boundarySet(n int32, jsonLen int) pcp.LabelSet {
	s := pcp.LabelSet{Inst: pcp.InstNull, NLabels: n, JSON: `{"a":1` + strings.Repeat(" ", max(jsonLen-7, 0)) + "}"}
	for range max(n, 0) {
		s.Labels = append(s.Labels, pcp.Label{Name: 2, NameLen: 1, Value: 5, ValueLen: 1})
	}
	return s
}

// labelBody is the body of an archive label record (after its length and
// type words) holding the sets, in the layout of version 2 or 3.
func labelBody(version int, sets []pcp.LabelSet) []byte {
	var b []byte
	if version == Version3 {
		b = make([]byte, 12)
		putTimestamp(b, pcp.Timestamp{Sec: 1700000000, Nsec: 5})
	} else {
		b = binary.BigEndian.AppendUint32(b, 1700000000)
		b = binary.BigEndian.AppendUint32(b, 5)
	}
	b = binary.BigEndian.AppendUint32(b, labelContext)
	b = binary.BigEndian.AppendUint32(b, pmIDNull)
	b = binary.BigEndian.AppendUint32(b, uint32(len(sets)))
	for _, s := range sets {
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
	}
	return b
}

// answer is a decoder's answer as the harness prints libpcp's: the
// status, then each set's label count and JSON length; libpcp's PDU
// decoder (allJSON false) keeps the JSON of sets with labels only.
func answer(err error, sets []pcp.LabelSet, allJSON bool) string {
	if err != nil {
		return fmt.Sprint(int(pcp.CodeOf(err, pcp.ErrGeneric)))
	}
	var sb strings.Builder
	sb.WriteString("0")
	for _, s := range sets {
		jl := 0
		if s.NLabels > 0 || allJSON {
			jl = len(s.JSON)
		}
		fmt.Fprintf(&sb, " %d/%d", s.NLabels, jl)
	}
	return sb.String()
}

// TestLabelSetBoundary gives the label-set decoders of LABEL PDUs and of
// archive label records the label counts and JSON lengths around PCP's
// limits, and libpcp 6.0.3's own decoders the same bytes. libpcp has a
// rule per layout: __pmDecodeLabel refuses a count or JSON length at
// PM_MAXLABELS or PM_MAXLABELJSONLEN (PM_ERR_IPC), __pmLogLoadLabelSet
// only one above them (PM_ERR_LOGREC), so a set of 255 labels is a bad
// PDU but a good archive record.
func TestLabelSetBoundary(t *testing.T) {
	type tc struct {
		n       int32
		jsonLen int
	}
	var cases []tc
	for _, n := range []int32{0, 1, pcp.MaxLabels - 1, pcp.MaxLabels, pcp.MaxLabels + 1, int32(pcp.ErrLabel)} {
		cases = append(cases, tc{n, 7})
	}
	for _, jl := range []int{pcp.MaxLabelJSONLen - 1, pcp.MaxLabelJSONLen, pcp.MaxLabelJSONLen + 1} {
		cases = append(cases, tc{1, jl})
	}
	var input strings.Builder
	var ours []string
	for _, c := range cases {
		sets := []pcp.LabelSet{boundarySet(c.n, c.jsonLen), boundarySet(1, 7)}
		msg := (&pdu.Label{Ident: pmIDNull, Type: labelContext, Sets: sets}).Append(nil, 0)
		var got pdu.Label
		err := got.Decode(msg)
		fmt.Fprintf(&input, "pdu %s\n", hex.EncodeToString(msg))
		ours = append(ours, fmt.Sprintf("pdu n=%d json=%d: %s", c.n, c.jsonLen, answer(err, got.Sets, false)))
		for _, v := range []int{Version2, Version3} {
			body := labelBody(v, sets)
			typ := TypeLabel
			if v == Version2 {
				typ = TypeLabelV2
			}
			d := metaDecoder(body, 0)
			lr := decodeLabelRecord(&d, typ)
			err := d.Err
			var sets []pcp.LabelSet
			if err == nil {
				sets = lr.Sets
			}
			fmt.Fprintf(&input, "v%d %s\n", v, hex.EncodeToString(body))
			ours = append(ours, fmt.Sprintf("v%d n=%d json=%d: %s", v, c.n, c.jsonLen, answer(err, sets, true)))
		}
	}
	out := pcptest.Run(t, input.String(), pcptest.Harness(t, "testdata/harness/labelset.c"))
	theirs := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(theirs) != len(ours) {
		t.Fatalf("libpcp answered %d lines for %d inputs:\n%s", len(theirs), len(ours), out)
	}
	for i, o := range ours {
		want := o[:strings.Index(o, ": ")+2] + theirs[i]
		if o != want {
			t.Errorf("ours %s\nlibpcp's %s", o, want)
		} else {
			t.Log(o)
		}
	}
}
