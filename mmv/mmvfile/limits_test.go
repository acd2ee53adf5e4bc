package mmvfile

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"

	"github.com/gopcp/gopcp/mmv"
)

// header is the 40 bytes of a sound version 1 header with tocs entries,
// followed by the TOC entries given (type, count, offset).
func header(tocs int32, entries ...[3]int64) []byte {
	b := make([]byte, mmv.HeaderSize, mmv.HeaderSize+len(entries)*mmv.TOCSize)
	copy(b, mmv.Magic)
	le := binary.LittleEndian
	le.PutUint32(b[4:], uint32(mmv.Version1))
	le.PutUint64(b[8:], 1)
	le.PutUint64(b[16:], 1)
	le.PutUint32(b[24:], uint32(tocs))
	for _, e := range entries {
		b = le.AppendUint32(b, uint32(e[0]))
		b = le.AppendUint32(b, uint32(e[1]))
		b = le.AppendUint64(b, uint64(e[2]))
	}
	return b
}

// SparseFile writes head at the start of a sparse file of size bytes and
// maps it, as the agent maps a file: the mapping costs no memory until
// read.
func sparseFile(t *testing.T, head []byte, size int64) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "sparse")
	if err := os.WriteFile(path, head, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, size); err != nil {
		t.Skipf("no sparse file of %d bytes here: %v", size, err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		t.Skipf("cannot map %d bytes here: %v", size, err)
	}
	t.Cleanup(func() { syscall.Munmap(b) })
	return b
}

// TestSparseFileClaimingHugeCounts: a sparse file of 1 TiB (a few bytes
// on disk) whose TOC claims billions of records, or billions of TOC
// entries, all inside its length, is refused with ErrTooLarge before
// anything is allocated for them: the parse allocates under 64 KiB.
// Before Limits the section of 2^31-1 values was decoded record by
// record (64 GiB of records), and the TOC of 2^31-1 entries was one
// 32 GiB allocation.
func TestSparseFileClaimingHugeCounts(t *testing.T) {
	const size = 1 << 40
	cases := []struct {
		name string
		head []byte
	}{
		{"values", header(2, [3]int64{mmv.TOCMetrics, 0, 72}, [3]int64{mmv.TOCValues, 1<<31 - 1, 72})},
		{"many sections", header(5, [3]int64{mmv.TOCValues, 1 << 17, 120}, [3]int64{mmv.TOCValues, 1 << 17, 120},
			[3]int64{mmv.TOCStrings, 1 << 17, 120}, [3]int64{mmv.TOCStrings, 1 << 17, 120}, [3]int64{mmv.TOCStrings, 1 << 17, 120})},
		{"toc", header(1<<31 - 1)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := sparseFile(t, c.head, size)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, err := Parse(b, Limits{})
			runtime.ReadMemStats(&after)
			if !errors.Is(err, ErrTooLarge) {
				t.Fatalf("Parse: %v, want ErrTooLarge", err)
			}
			if n := after.TotalAlloc - before.TotalAlloc; n > 64<<10 {
				t.Errorf("the parse allocated %d bytes", n)
			}
			t.Logf("%v", err)
		})
	}
}

// TestLimitsApplied: each limit refuses just past itself and admits its
// own value, and InstancesAt refuses more instances than Section.
func TestLimitsApplied(t *testing.T) {
	good := written(t, false, true)
	f, err := Parse(good, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	most := 0
	for _, toc := range f.TOC {
		most = max(most, int(toc.Count))
	}
	total := len(f.InDoms) + len(f.Instances) + len(f.Metrics) + len(f.Values) + len(f.Strings) + len(f.Labels)
	for _, c := range []struct {
		lim Limits
		ok  bool
	}{
		{Limits{TOC: len(f.TOC)}, true},
		{Limits{TOC: len(f.TOC) - 1}, false},
		{Limits{Section: most}, true},
		{Limits{Section: most - 1}, false},
		{Limits{Total: total}, true},
		{Limits{Total: total - 1}, false},
	} {
		_, err := Parse(good, c.lim)
		if c.ok != (err == nil) || (err != nil && !errors.Is(err, ErrTooLarge)) {
			t.Errorf("%+v: %v", c.lim, err)
		}
	}
	f, err = Parse(good, Limits{Section: most})
	if err != nil {
		t.Fatal(err)
	}
	d := f.InDoms[0]
	if _, err := f.InstancesAt(d.First, uint32(most)+1); !errors.Is(err, ErrTooLarge) {
		t.Errorf("InstancesAt past the limit: %v", err)
	}
	if _, err := f.InstancesAt(d.First, d.Count); err != nil {
		t.Errorf("InstancesAt: %v", err)
	}
}
