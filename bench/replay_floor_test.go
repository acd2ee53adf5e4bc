package bench

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// TestReplayReadFloor measures what it costs this machine to bring a
// large page-cached archive volume into a process once, every cache line
// looked at, by each way a reader could take: the archive reader's own
// (a mapping read forwards, the pages 128 KB behind let go in runs of at
// least 34), a mapping kept whole, a mapping populated ahead with
// MADV_POPULATE_READ (1 MB at a time, or the whole volume at once), and
// pread into a reused buffer of 64 KB or 1 MB; and, to part the kernel's
// work from the memory's, a second pass over a mapping already made. CPU
// of the reading thread, GOPCP_BENCH_ROUNDS rounds (5 by default) of every
// way alternating, medians. The volume is GOPCP_BENCH_FLOOR_FILE, or the
// 100 MB archive TestReplayLargeSideBySide makes (GOPCP_BENCH_REPLAY_DIR
// keeps it). With GOPCP_BENCH_FLOOR_COPY=1 the same ways also read a copy
// of the volume written out, dropped from the page cache and read back,
// which the kernel then holds in large folios where the file system has
// them (docs/bench.md, "Replay: the cost of reading 100 MB").
//
//	GOPCP_BENCH=1 go test -run TestReplayReadFloor -v ./bench/
func TestReplayReadFloor(t *testing.T) {
	if os.Getenv("GOPCP_BENCH") != "1" {
		t.Skip("GOPCP_BENCH=1 runs the side-by-side benchmarks")
	}
	file := os.Getenv("GOPCP_BENCH_FLOOR_FILE")
	if file == "" {
		pcpTool(t, "pmlogger")
		file = makeLinuxArchive(t, replayArchiveDir(t), archiveSpec{
			name:     "linux-100ms-100mb",
			interval: "100 msec",
			roots:    linuxLogRoots,
			minBytes: 100 << 20,
		}) + ".0"
	}
	files := []string{file}
	what := []string{"as it is in the page cache"}
	if os.Getenv("GOPCP_BENCH_FLOOR_COPY") == "1" {
		files = append(files, rereadCopy(t, file))
		what = append(what, "a copy read back from disk")
	}
	rounds := benchRounds()
	if os.Getenv("GOPCP_BENCH_ROUNDS") == "" {
		rounds = 5
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for k, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		st, err := f.Stat()
		if err != nil {
			t.Fatal(err)
		}
		size := int(st.Size())
		// the volume in the page cache first
		if _, err := io.Copy(io.Discard, f); err != nil {
			t.Fatal(err)
		}
		ms := make([][]float64, len(floorWays))
		for range rounds {
			for i, w := range floorWays {
				ns, err := w.read(t, f, size)
				if err != nil {
					t.Fatalf("%s: %v", w.name, err)
				}
				ms[i] = append(ms[i], ns/1e6)
			}
		}
		f.Close()
		var b strings.Builder
		fmt.Fprintf(&b, "%s (%s), %.1f MB, %d pages of 4 KB; CPU ms, median of %d (range):\n", filepath.Base(name), what[k], float64(size)/1e6, size/4096, rounds)
		for i, w := range floorWays {
			slices.Sort(ms[i])
			fmt.Fprintf(&b, "  %-48s %6.1f (%.1f-%.1f)  %4.0f ns a page\n", w.name, ms[i][len(ms[i])/2], ms[i][0], ms[i][len(ms[i])-1], ms[i][len(ms[i])/2]*1e6/float64(size/4096))
		}
		t.Log(b.String())
	}
}

// rereadCopy writes a copy of name beside the test's files, drops it
// from the page cache and reads it back, so that the page cache holds it
// as a file read from disk is held (readahead's folios), not as a logger's
// appends left it.
func rereadCopy(t *testing.T, name string) string {
	t.Helper()
	to := filepath.Join(t.TempDir(), filepath.Base(name))
	in, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	if _, err := io.CopyBuffer(out, in, make([]byte, 4<<20)); err != nil {
		t.Fatal(err)
	}
	if err := out.Sync(); err != nil {
		t.Fatal(err)
	}
	const fadvDontNeed = 4 // POSIX_FADV_DONTNEED
	if _, _, e := syscall.Syscall6(syscall.SYS_FADVISE64, out.Fd(), 0, 0, fadvDontNeed, 0, 0); e != 0 {
		t.Fatal(e)
	}
	if _, err := out.Seek(0, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := io.CopyBuffer(io.Discard, out, make([]byte, 1<<20)); err != nil {
		t.Fatal(err)
	}
	return to
}

// floorSink keeps the touching loops' loads from being optimised away.
var floorSink uint64

// touchLines reads a word of every 64-byte line of b.
func touchLines(b []byte) {
	var s uint64
	for i := 0; i+8 <= len(b); i += 64 {
		s += *(*uint64)(unsafe.Pointer(&b[i]))
	}
	floorSink += s
}

// A floorWay is one way of reading a volume through once; read returns
// the CPU it took, in nanoseconds.
type floorWay struct {
	name string
	read func(t testing.TB, f *os.File, size int) (float64, error)
}

// timed is the CPU walk takes on this thread, in nanoseconds.
func timed(t testing.TB, walk func() error) (float64, error) {
	start := threadCPU(t)
	err := walk()
	return threadCPU(t) - start, err
}

// floorStride is the reading step, the 100 MB archive's record size.
const floorStride = 41528

const madvPopulateRead = 22 // MADV_POPULATE_READ, Linux 5.14

// mapWalk maps f and reads it forwards a record at a time: populate
// bytes made present ahead of the read (0: left to faults, -1: all at
// once), the pages 128 KB behind it let go in runs of at least 34 pages
// (drop), or kept to the unmapping.
func mapWalk(f *os.File, size int, populate int, drop bool) error {
	m, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return err
	}
	defer syscall.Munmap(m)
	const page, behind, runMin = 4096, 128 << 10, 34 * 4096
	if populate < 0 {
		if err := syscall.Madvise(m, madvPopulateRead); err != nil {
			return err
		}
	}
	popped, dropped := 0, 0
	for off := 0; off < size; off += floorStride {
		end := min(off+floorStride, size)
		if populate > 0 && end > popped {
			to := min((end+populate+page-1)&^(page-1), size)
			if err := syscall.Madvise(m[popped:to], madvPopulateRead); err != nil {
				return err
			}
			popped = to
		}
		touchLines(m[off:end])
		if to := (off - behind) &^ (page - 1); drop && to-dropped >= runMin {
			if err := syscall.Madvise(m[dropped:to], syscall.MADV_DONTNEED); err != nil {
				return err
			}
			dropped = to
		}
	}
	return nil
}

// preadWalk reads f through a buffer of n bytes.
func preadWalk(f *os.File, size, n int) error {
	buf := make([]byte, n)
	for off := 0; off < size; {
		k, err := f.ReadAt(buf, int64(off))
		if k > 0 {
			touchLines(buf[:k])
			off += k
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// floorWays are the ways TestReplayReadFloor measures.
var floorWays = []floorWay{
	{"map, faults, drop behind (the reader's way)", func(t testing.TB, f *os.File, size int) (float64, error) {
		return timed(t, func() error { return mapWalk(f, size, 0, true) })
	}},
	{"map, faults, kept to munmap", func(t testing.TB, f *os.File, size int) (float64, error) {
		return timed(t, func() error { return mapWalk(f, size, 0, false) })
	}},
	{"map, POPULATE_READ 1 MB ahead, drop behind", func(t testing.TB, f *os.File, size int) (float64, error) {
		return timed(t, func() error { return mapWalk(f, size, 1<<20, true) })
	}},
	{"map, POPULATE_READ whole, kept", func(t testing.TB, f *os.File, size int) (float64, error) {
		return timed(t, func() error { return mapWalk(f, size, -1, false) })
	}},
	{"pread 64 KB", func(t testing.TB, f *os.File, size int) (float64, error) {
		return timed(t, func() error { return preadWalk(f, size, 64<<10) })
	}},
	{"pread 1 MB", func(t testing.TB, f *os.File, size int) (float64, error) {
		return timed(t, func() error { return preadWalk(f, size, 1<<20) })
	}},
	{"memory alone: a second pass over a made mapping", mappedAgain},
}

// mappedAgain maps f and populates the mapping, untimed, and returns
// the CPU of one pass over it: the memory's part of reading without the
// kernel's.
func mappedAgain(t testing.TB, f *os.File, size int) (float64, error) {
	m, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return 0, err
	}
	defer syscall.Munmap(m)
	if err := syscall.Madvise(m, madvPopulateRead); err != nil {
		return 0, err
	}
	return timed(t, func() error { touchLines(m); return nil })
}
