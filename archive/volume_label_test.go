package archive

import (
	"bytes"
	"compress/gzip"
	"os"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// TestCompressedFirstLabel checks that Open, which decompresses only the
// head of a compressed first volume, judges it as it judges the same
// content uncompressed: the same label, or the same error for a volume
// holding only its label, a short or empty one and a bad one.
func TestCompressedFirstLabel(t *testing.T) {
	for _, version := range []int{Version2, Version3} {
		dir := t.TempDir()
		base := testArchive(t, dir, version, 3)
		data, err := os.ReadFile(base + ".0")
		if err != nil {
			t.Fatal(err)
		}
		hdr := labelSize(version)
		bad := bytes.Clone(data)
		bad[5] ^= 0xff
		tests := []struct {
			name    string
			content []byte
			want    pcp.Error // 0: opens
		}{
			{"whole", data, 0},
			{"label and one byte", data[:hdr+1], 0},
			{"label only", data[:hdr], pcp.ErrNoData},
			{"short label", data[:hdr-1], pcp.ErrLabel},
			{"empty", nil, pcp.ErrNoData},
			{"bad magic", bad, pcp.ErrLabel},
		}
		open := func() (Label, pcp.Error) {
			a, err := Open(base, Options{})
			if err != nil {
				return Label{}, Code(err)
			}
			defer a.Close()
			return a.Label, 0
		}
		for _, tt := range tests {
			os.Remove(base + ".0.gz")
			if err := os.WriteFile(base+".0", tt.content, 0o644); err != nil {
				t.Fatal(err)
			}
			plainLabel, plainCode := open()
			var buf bytes.Buffer
			zw := gzip.NewWriter(&buf)
			zw.Write(tt.content)
			zw.Close()
			os.Remove(base + ".0")
			if err := os.WriteFile(base+".0.gz", buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			label, code := open()
			if code != plainCode || label != plainLabel {
				t.Errorf("v%d %s: compressed gives %v %+v, plain %v %+v", version, tt.name, code, label, plainCode, plainLabel)
			}
			if code != tt.want {
				t.Errorf("v%d %s: %v, want %v", version, tt.name, code, tt.want)
			}
		}
	}
}
