package mmvfile

import (
	"testing"
)

// FuzzParse feeds Parse any bytes: it must return a File or an error,
// never panic, and a File's records must all lie inside the bytes, so that
// a reader may follow them (Value) without checking again.
func FuzzParse(f *testing.F) {
	for _, b := range [][]byte{written(f, false, false), written(f, true, false), written(f, false, true)} {
		f.Add(b)
	}
	for _, b := range qaFiles(f) {
		if len(b) <= 64<<10 {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		file, err := Parse(b)
		if err != nil {
			return
		}
		records := 0
		for _, v := range file.Values {
			file.Value(v)
		}
		records += len(file.InDoms) + len(file.Instances) + len(file.Metrics) + len(file.Values) + len(file.Strings) + len(file.Labels)
		// Every record takes at least 16 bytes of the file (a TOC
		// entry's worth), so their number bounds the allocation.
		if records > len(b)/16 {
			t.Fatalf("%d records from %d bytes", records, len(b))
		}
		for _, m := range file.Metrics {
			file.String(m.ShortText)
			file.String(m.HelpText)
		}
	})
}
