package main

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/gopcp/gopcp/mmv"
)

// FuzzDump walks any bytes as mmvdump does: no panic, and output
// bounded by the file (each entry prints at most a few lines per record
// the file could hold, plus its fault).
func FuzzDump(f *testing.F) {
	le := binary.LittleEndian
	for _, v := range []int32{1, 2, 3} {
		for _, typ := range []int32{mmv.TOCInDoms, mmv.TOCInstances, mmv.TOCMetrics, mmv.TOCValues, mmv.TOCStrings, mmv.TOCLabels} {
			b := header("MMV", v, 1, 1, 2, 0, 0, 0, 0)
			for _, e := range [][2]int32{{typ, 2}, {mmv.TOCValues, 1}} {
				b = le.AppendUint32(b, uint32(e[0]))
				b = le.AppendUint32(b, uint32(e[1]))
				b = le.AppendUint64(b, 72)
			}
			f.Add(append(b, make([]byte, 300)...))
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var out bytes.Buffer
		run(&out, "f", b)
		tocs := 0
		if len(b) >= mmv.HeaderSize {
			tocs = int(max(0, int32(le.Uint32(b[24:]))))
		}
		// a record takes at least 16 bytes (strings are checked every
		// 32) and prints at most 7 lines, each at most 100 bytes and a
		// string running to the end of the file
		if bound := 1024 + tocs*(200+(len(b)/16+1)*7*(100+len(b))); out.Len() > bound {
			t.Fatalf("%d bytes of output for a file of %d", out.Len(), len(b))
		}
	})
}
