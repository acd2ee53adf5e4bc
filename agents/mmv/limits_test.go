package mmv

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	gommv "github.com/gopcp/gopcp/mmv"
	"github.com/gopcp/gopcp/mmv/mmvfile"
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

// TestFaultWhileOpening: a file cut short between the scan's look at its
// size and the parse of its mapping makes the parse fault past the new
// end. open gives an error naming the file's format, and asks for a
// rescan; before, the fault went up through the whole scan, leaving the
// files mapped so far behind.
func TestFaultWhileOpening(t *testing.T) {
	dir := t.TempDir()
	var logged bytes.Buffer
	ag, _, err := newAgent(Domain, Options{Dir: dir, Prefix: Prefix, Log: log.New(&logged, "", 0)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ag.release)
	r, err := gommv.New("big", gommv.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 200 {
		if _, err := r.Counter(fmt.Sprintf("c%03d", i), gommv.MetricOptions{ShortHelp: "a counter"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b, err := os.ReadFile(r.Path())
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 3*4096 {
		t.Fatalf("file of %d bytes: too small to cut after its first page", len(b))
	}
	path := filepath.Join(dir, "cut")
	if err := os.WriteFile(path, b[:4096], 0o644); err != nil { // header and TOC kept
		t.Fatal(err)
	}
	ag.mu.Lock()
	defer ag.mu.Unlock()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	s := ag.emptyState()
	ag.reload = 0
	var opened error
	func() {
		defer ag.guard(&opened)
		opened = ag.open(s, "cut", path, int64(len(b))) // the size seen before the cut
	}()
	if !errors.Is(opened, mmvfile.ErrFormat) {
		t.Errorf("open: %v, want a format error", opened)
	}
	if ag.reload == 0 {
		t.Error("no rescan asked for")
	}
	if len(s.files) != 0 {
		t.Errorf("%d files taken", len(s.files))
	}
	t.Logf("%v", opened)
}
