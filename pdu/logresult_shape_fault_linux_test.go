package pdu

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"syscall"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// TestShapeLearnFault: a record whose bytes fault part-way through learn
// (a mapped archive volume cut short under the reader, which recovers)
// leaves no usable shape behind, so no later record of that length is
// decoded from a half-written template.
func TestShapeLearnFault(t *testing.T) {
	rec := selectRecord()
	good := AppendLogRecord(make([]byte, LogRecordPrefix), 0, rec, false)
	var s Shape
	var got pcp.Result
	if _, err := DecodeLogRecordSelectShapeInto(&got, append([]byte(nil), good...), false, shapeIDs, &s); err != nil {
		t.Fatal(err)
	}
	if !s.ok {
		t.Fatal("no shape learnt from a good record")
	}
	// A mapping of the record's length whose file is then emptied: every
	// read of it faults.
	path := filepath.Join(t.TempDir(), "vol")
	if err := os.WriteFile(path, good, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := syscall.Mmap(int(f.Fd()), 0, len(good), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	defer syscall.Munmap(m)
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	faulted := func() (faulted bool) {
		old := debug.SetPanicOnFault(true)
		defer func() {
			debug.SetPanicOnFault(old)
			faulted = recover() != nil
		}()
		s.learn(m, false, shapeIDs, int32(len(rec.Sets)))
		return false
	}()
	if !faulted {
		t.Fatal("reading the emptied mapping did not fault")
	}
	if s.ok {
		t.Error("a shape half-learnt under a fault is still taken as learnt")
	}
}
