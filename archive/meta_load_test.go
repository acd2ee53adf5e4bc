package archive

import (
	"encoding/binary"
	"errors"
	"os"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// metaFile is a version 3 metadata file: its label, then the records,
// each framed by its length words and type.
func metaFile(recs ...[]byte) []byte {
	l := Label{Magic: Magic | Version3, PID: 1, Vol: VolMeta, Hostname: "h", Timezone: "UTC"}
	b := AppendLabel(nil, &l)
	for _, r := range recs {
		b = append(b, r...)
	}
	return b
}

func metaRec(typ int, words ...any) []byte {
	var body []byte
	for _, w := range words {
		switch w := w.(type) {
		case int:
			body = binary.BigEndian.AppendUint32(body, uint32(w))
		case string:
			body = append(body, w...)
		case []byte:
			body = append(body, w...)
		}
	}
	var b []byte
	b = binary.BigEndian.AppendUint32(b, uint32(len(body)+12))
	b = binary.BigEndian.AppendUint32(b, uint32(typ))
	b = append(b, body...)
	return binary.BigEndian.AppendUint32(b, uint32(len(body)+12))
}

// TestMetaErrorOffsets damages one field of a record after a good
// descriptor and checks that the error is PCP's code at the file offset
// of that field, and names the record's start.
func TestMetaErrorOffsets(t *testing.T) {
	desc := metaRec(TypeDesc, 1<<10|1, int(pcp.Type32), -1, int(pcp.SemInstant), 0, 1, 3, "a.b")
	hdr := labelSize(Version3) + len(desc) // where the damaged record starts
	stamp := make([]byte, 12)
	label := func(nlabels int) []byte {
		var labels []byte
		for range nlabels {
			labels = append(labels, 0, 2, 1, 0, 0, 5, 0, 1)
		}
		return metaRec(TypeLabel, stamp, labelContext, pmIDNull, 1, -1, 7, `{"a":1}`, nlabels, labels)
	}
	for _, tc := range []struct {
		name string
		rec  []byte
		code pcp.Error
		at   int // offset of the damaged field within the record
	}{
		{"label count at the limit", label(pcp.MaxLabels), 0, 0},
		{"label count above the limit", label(pcp.MaxLabels + 1), pcp.ErrLogRec, 8 + 12 + 12 + 8 + 7},
		{"label set count", metaRec(TypeLabel, stamp, labelContext, pmIDNull, 2, -1, 0, 0), pcp.ErrLogRec, 8 + 12 + 8},
		{"JSON length", metaRec(TypeLabel, stamp, labelContext, pmIDNull, 1, -1, 1<<16, 0), pcp.ErrLogRec, 8 + 12 + 12 + 4},
		{"instance count", metaRec(TypeInDom, stamp, 5, 3, 0, 0, "x\x00"), pcp.ErrLogRec, 8 + 12 + 4},
		{"instance identifier", metaRec(TypeInDom, stamp, 5, 2, 0, -4, 0, 2, "x\x00y\x00"), pcp.ErrLogRec, 8 + 12 + 8 + 4},
		{"name index", metaRec(TypeInDom, stamp, 5, 2, 0, 1, 0, 5, "x\x00y\x00"), pcp.ErrLogRec, 8 + 12 + 8 + 12},
		{"trailer", append(metaRec(TypeText, TextOneLine|TextPMID, 1, "t\x00")[:8+10], 0, 0, 0, 9), pcp.ErrLogRec, 8 + 10},
		{"record type", metaRec(99), pcp.ErrRecType, 0},
		{"descriptor cut short", metaRec(TypeDesc, 1, 2)[:16], pcp.ErrLogRec, 16},
		{"name cut short", metaRec(TypeDesc, 1<<10|2, int(pcp.Type32), -1, int(pcp.SemInstant), 0, 1, 30, "a.c")[:8+28+3], pcp.ErrLogRec, 8 + 28},
		{"descriptor changes type", metaRec(TypeDesc, 1<<10|1, int(pcp.TypeU32), -1, int(pcp.SemInstant), 0, 0), pcp.ErrLogChangeType, 0},
	} {
		_, err := loadMeta(metaFile(desc, tc.rec), Version3)
		if tc.code == 0 {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		var e *Error
		if !errors.Is(err, tc.code) || !errors.As(err, &e) || e.Offset != int64(hdr+tc.at) {
			t.Errorf("%s: error %v, want %v at offset %d", tc.name, err, tc.code, hdr+tc.at)
		}
	}
}

// TestMetaCuts cuts a QA archive's metadata at every byte: what is read
// is an error at an offset within the file (the label excepted) or the
// end of the file.
func TestMetaCuts(t *testing.T) {
	b, err := os.ReadFile(qaDir + "/omnibus_v3.meta")
	if err != nil {
		t.Skip("PCP's QA archives are not installed")
	}
	if _, err := loadMeta(b, Version3); err != nil {
		t.Fatal(err)
	}
	hdr := labelSize(Version3)
	for cut := hdr; cut < len(b); cut++ {
		_, err := loadMeta(b[:cut], Version3)
		var e *Error
		if err != nil && (!errors.As(err, &e) || e.Offset < int64(hdr) || e.Offset > int64(cut)) {
			t.Fatalf("cut at %d: %v", cut, err)
		}
	}
}
