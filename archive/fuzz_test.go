package archive

import (
	"errors"
	"os"
	"testing"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// seedFile adds the first bytes of a QA archive file to a fuzz corpus
// when PCP's QA archives are installed.
func seedFile(f *testing.F, path string, limit int) {
	b, err := os.ReadFile(qaDir + "/" + path)
	if err != nil {
		return
	}
	if len(b) > limit {
		b = b[:limit]
	}
	f.Add(b)
}

func FuzzDecodeLabel(f *testing.F) {
	l := Label{Magic: Magic | Version3, PID: 42, Start: pcp.Timestamp{Sec: 1700000000, Nsec: 5}, Vol: 0, Hostname: "h", Timezone: "UTC"}
	f.Add(AppendLabel(nil, &l))
	l.Magic = Magic | Version2
	f.Add(AppendLabel(nil, &l))
	seedFile(f, "20041125.0", 200)
	f.Fuzz(func(t *testing.T, b []byte) {
		l, err := DecodeLabel(b)
		if err != nil {
			return
		}
		if l.Version() == Version2 && l.Start.Nsec%1000 != 0 {
			// libpcp multiplies a timeval's microseconds by 1000 in
			// 32 bits, as DecodeLabel does: a product that wrapped to
			// no multiple of 1000 has no timeval that writes it.
			return
		}
		// What decodes re-encodes to the same label.
		again, err := DecodeLabel(AppendLabel(nil, &l))
		if err != nil || again != l {
			t.Fatalf("round trip: %+v -> %+v, %v", l, again, err)
		}
	})
}

func FuzzLoadMeta(f *testing.F) {
	seedFile(f, "20041125.meta", 4000)
	seedFile(f, "omnibus_v3.meta", 6000)
	seedFile(f, "sample-labels.meta", 6000)
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, v := range []int{Version2, Version3} {
			m, err := loadMeta(b, v)
			if m == nil {
				t.Fatal("no metadata returned")
			}
			var code pcp.Error
			if err != nil && !errors.As(err, &code) {
				t.Fatalf("error %v carries no PCP code", err)
			}
			m.EachDesc(func(d pcp.Desc) { _, _ = m.Names(d.PMID) })
			m.EachInDom(func(pcp.InDom, []*InDom) {})
			_ = m.LabelHistory()
			_ = m.HelpTexts()
		}
	})
}

func FuzzDecodeRecord(f *testing.F) {
	var r pcp.Result
	r.Timestamp = pcp.Timestamp{Sec: 1700000000, Nsec: 1000}
	r.Sets = []pcp.ValueSet{
		{PMID: 1, NumVal: 1, ValFmt: pcp.ValInSitu, Values: []pcp.Value{{Inst: -1, LVal: 7}}},
		{PMID: 2, NumVal: 1, ValFmt: pcp.ValDPtr, Values: []pcp.Value{{Inst: 3, Block: pcp.ValueBlock{Type: pcp.TypeString, Data: []byte("abc")}}}},
		{PMID: 3, NumVal: -12357},
	}
	for _, v3 := range []bool{false, true} {
		buf := make([]byte, pdu.LogRecordPrefix)
		f.Add(pdu.AppendLogRecord(buf, 0, &r, v3), v3)
	}
	f.Fuzz(func(t *testing.T, b []byte, v3 bool) {
		var res pcp.Result
		if len(b) < pdu.LogRecordPrefix {
			return
		}
		if err := pdu.DecodeLogRecordInto(&res, b, v3); err != nil {
			return
		}
		if !v3 && res.Timestamp.Nsec%1000 != 0 {
			// A version 2 record's microseconds times 1000 wrapped in
			// 32 bits, as in libpcp (see FuzzDecodeLabel): no timeval
			// writes that stamp back.
			return
		}
		// A record that decodes encodes to one that decodes the same.
		again := pdu.AppendLogRecord(make([]byte, pdu.LogRecordPrefix), 0, &res, v3)
		var res2 pcp.Result
		if err := pdu.DecodeLogRecordInto(&res2, again, v3); err != nil {
			t.Fatalf("re-encoded record does not decode: %v", err)
		}
		if len(res2.Sets) != len(res.Sets) || res2.Timestamp != res.Timestamp {
			t.Fatalf("round trip changed the record")
		}
	})
}

// FuzzMetaRecord gives a record body to the decoder of each kind of
// metadata record: whatever the bytes, a decoder ends within them, and a
// failure names an offset within them.
func FuzzMetaRecord(f *testing.F) {
	stamp := make([]byte, 12)
	f.Add(labelBody(Version3, []pcp.LabelSet{boundarySet(2, 7), boundarySet(-12357, 0)}), uint8(TypeLabel))
	f.Add(labelBody(Version2, []pcp.LabelSet{boundarySet(pcp.MaxLabels, 7)}), uint8(TypeLabelV2))
	in := metaRec(TypeInDom, stamp, 5, 2, 0, 1, 0, 2, "x\x00y\x00")
	f.Add(in[8:len(in)-4], uint8(TypeInDom))
	f.Add(in[8:len(in)-4], uint8(TypeInDomDelta))
	f.Add(in[12:len(in)-4], uint8(TypeInDomV2))
	txt := metaRec(TypeText, TextOneLine|TextPMID, 1, "t\x00")
	f.Add(txt[8:len(txt)-4], uint8(TypeText))
	f.Fuzz(func(t *testing.T, body []byte, typ uint8) {
		d := metaDecoder(body, 0)
		switch int(typ) {
		case TypeInDom, TypeInDomDelta, TypeInDomV2:
			id, _, n := decodeInDom(&d, int(typ))
			if d.Err == nil && n > 0 && (len(id.Insts) != int(n) || len(id.Names) != int(n)) {
				t.Fatalf("%d instances of %d", len(id.Insts), n)
			}
		case TypeLabel, TypeLabelV2:
			lr := decodeLabelRecord(&d, int(typ))
			if d.Err == nil {
				for _, s := range lr.Sets {
					if s.NLabels > pcp.MaxLabels || len(s.JSON) > pcp.MaxLabelJSONLen {
						t.Fatalf("set beyond the limits: %d labels, %d bytes of JSON", s.NLabels, len(s.JSON))
					}
				}
			}
		case TypeText:
			decodeText(&d)
		default:
			return
		}
		var e *Error
		if d.Off > len(body) || (d.Err != nil && (!errors.As(d.Err, &e) || e.Offset < 0 || e.Offset > int64(len(body)))) {
			t.Fatalf("offset %d, error %v, in %d bytes", d.Off, d.Err, len(body))
		}
	})
}
