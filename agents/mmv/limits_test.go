package mmv

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	gommv "github.com/gopcp/gopcp/mmv"
)

// sparse writes a sound version 1 header whose TOC names a values
// section of count records at offset 72, and makes the file size bytes
// long without writing them.
func sparse(t *testing.T, path string, count int32, size int64) {
	t.Helper()
	le := binary.LittleEndian
	b := make([]byte, gommv.HeaderSize)
	copy(b, gommv.Magic)
	le.PutUint32(b[4:], uint32(gommv.Version1))
	le.PutUint64(b[8:], 1)
	le.PutUint64(b[16:], 1)
	le.PutUint32(b[24:], 2)
	for _, e := range [][2]int32{{gommv.TOCMetrics, 0}, {gommv.TOCValues, count}} {
		b = le.AppendUint32(b, uint32(e[0]))
		b = le.AppendUint32(b, uint32(e[1]))
		b = le.AppendUint64(b, 72)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, size); err != nil {
		t.Skipf("no sparse file of %d bytes here: %v", size, err)
	}
}

// TestSparseFilesBounded: sparse files claiming millions of records
// beside a good one: one within the agent's size cap whose values
// section is past its parse limit, and one of 1 TiB, past the cap. Each is
// skipped with its log line, the good file is served, and a rescan
// allocates under 1 MiB. (With the 1 TiB cap and no parse limit before,
// the first was decoded record by record: 4 million values.)
func TestSparseFilesBounded(t *testing.T) {
	l := newLocal(t)
	l.registry("good", 0)
	sparse(t, filepath.Join(l.dir, "claims"), 1<<22, 1<<27)
	sparse(t, filepath.Join(l.dir, "huge"), 1<<31-1, 1<<40)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	names := l.names() // the first request scans
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("the scan allocated %d bytes", n)
	}
	if !strings.Contains(strings.Join(names, " "), "mmv.good.first") {
		t.Errorf("good file not served: %v", names)
	}
	for _, want := range []string{"skipping " + filepath.Join(l.dir, "claims") + ": mmv file beyond the reader's limits: section 4 of 4194304 records",
		"skipping " + filepath.Join(l.dir, "huge") + ": 1099511627776 bytes, more than 268435456"} {
		if !strings.Contains(l.log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, l.log.String())
		}
	}
}
