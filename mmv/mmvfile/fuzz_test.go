package mmvfile

import (
	"testing"
)

// FuzzParse feeds Parse any bytes: it must return a File or an error,
// never panic, a File's records must all lie inside the bytes, so that
// a reader may follow them (Value) without checking again, and tight
// Limits must bound what it decodes.
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
		// Tight limits hold whatever the bytes claim.
		tight := Limits{TOC: 4, Section: 8, Total: 12}
		if small, err := Parse(b, tight); err == nil {
			n := len(small.InDoms) + len(small.Instances) + len(small.Metrics) + len(small.Values) + len(small.Strings) + len(small.Labels)
			if len(small.TOC) > tight.TOC || n > tight.Total {
				t.Fatalf("%d TOC entries and %d records past %+v", len(small.TOC), n, tight)
			}
			for _, d := range small.InDoms {
				if ins, err := small.InstancesAt(d.First, d.Count); err == nil && len(ins) > tight.Section {
					t.Fatalf("%d instances past %+v", len(ins), tight)
				}
			}
		}
		file, err := Parse(b, Limits{})
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
