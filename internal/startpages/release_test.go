package startpages

import (
	"encoding/binary"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

func TestRuns(t *testing.T) {
	const (
		absent  = 0
		file    = pmPresent | pmFile
		private = pmPresent // present without pmFile: a private copy
		swapped = pmSwap    // a private copy in swap
	)
	m := span{0x400000, 0x400000 + 6*pageSize}
	page := func(i uint64) uint64 { return m.lo + i*pageSize }
	for _, c := range []struct {
		name  string
		flags []uint64
		want  []span
	}{
		{"all file pages", []uint64{file, file, file, file, file, file}, []span{{page(0), page(6)}}},
		{"absent pages too", []uint64{absent, file, absent, absent, file, absent}, []span{{page(0), page(6)}}},
		{"private copy in the middle", []uint64{file, file, private, file, absent, file}, []span{{page(0), page(2)}, {page(3), page(6)}}},
		{"private copies at both ends", []uint64{private, file, file, file, file, private}, []span{{page(1), page(5)}}},
		{"two private copies together", []uint64{file, private, private, file, file, file}, []span{{page(0), page(1)}, {page(3), page(6)}}},
		{"all private", []uint64{private, private, private, private, private, private}, nil},
		{"private copy in swap", []uint64{file, swapped, file, absent, private, file}, []span{{page(0), page(1)}, {page(2), page(4)}, {page(5), page(6)}}},
	} {
		var rs runs
		for i, f := range c.flags {
			rs.page(page(uint64(i)), f)
		}
		rs.end(m.hi)
		if !slices.Equal(rs.out, c.want) {
			t.Errorf("%s: runs = %x, want %x", c.name, rs.out, c.want)
		}
	}
}

func TestReadOnlyMappings(t *testing.T) {
	const exe = "/usr/bin/pmval"
	maps := `00400000-0074a000 r-xp 00000000 08:01 1234 /usr/bin/pmval
0074a000-00aca000 r--p 0034a000 08:01 1234 /usr/bin/pmval
00aca000-00b69000 rw-p 006ca000 08:01 1234 /usr/bin/pmval
00b69000-00d8b000 rw-p 00000000 00:00 0
01000000-01001000 r--p 00000000 08:01 99 /usr/bin/pmvalx
01002000-01003000 r--p 00000000 08:01 99 /usr/bin/pmval (deleted)
01004000-01003000 r--p 00000000 08:01 1234 /usr/bin/pmval
01005001-01006000 r--p 00000000 08:01 1234 /usr/bin/pmval
0100g000-01007000 r--p 00000000 08:01 1234 /usr/bin/pmval
01008000 r--p 00000000 08:01 1234 /usr/bin/pmval
01009000-0100a000 ---p 00000000 08:01 1234 /usr/bin/pmval
0100a000-0100b000 r- 00000000 08:01 1234 /usr/bin/pmval
10000000-90000000 r--p 00000000 08:01 1234 /usr/bin/pmval
7ffd1000-7ffd3000 r-xp 00000000 00:00 0 [vdso]
0100b000-0100c000 r--p 00000000 08:01 1234 /usr/bin/pmval`
	want := []span{{0x74a000, 0xaca000}, {0x100b000, 0x100c000}}
	if got := readOnlyMappings([]byte(maps), exe); !slices.Equal(got, want) {
		t.Errorf("readOnlyMappings = %x, want %x", got, want)
	}
}

func FuzzReadOnlyMappings(f *testing.F) {
	f.Add([]byte("00400000-0074a000 r-xp 00000000 08:01 1234 /x\n"), "/x")
	f.Add([]byte("0074a000-00aca000 r--p 0034a000 08:01 1234 /x\n00aca000-00b69000 rw-p 006ca000 08:01 1234 /x"), "/x")
	f.Add([]byte("0074a000-00aca000 r- 0034a000 08:01 1234 /x\n"), "/x")
	f.Fuzz(func(t *testing.T, maps []byte, path string) {
		for _, m := range readOnlyMappings(maps, path) {
			if m.lo >= m.hi || m.lo%pageSize != 0 || m.hi%pageSize != 0 || m.hi-m.lo > maxMapping {
				t.Fatalf("mapping %x out of bounds", m)
			}
		}
	})
}

// exeFlags is the pagemap entries of this test binary's read-only
// mappings, by address.
func exeFlags(t *testing.T) map[uint64]uint64 {
	t.Helper()
	exe, err := os.Readlink("/proc/self/exe")
	if err != nil {
		t.Skip("no /proc/self/exe:", err)
	}
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Fatal(err)
	}
	pm, err := os.Open("/proc/self/pagemap")
	if err != nil {
		// gVisor, kernels without pagemap: Release returns this error
		// and its callers go on without it
		t.Skip("no pagemap:", err)
	}
	defer pm.Close()
	out := map[uint64]uint64{}
	for _, m := range readOnlyMappings(maps, exe) {
		buf := make([]byte, (m.hi-m.lo)/pageSize*8)
		if _, err := pm.ReadAt(buf, int64(m.lo/pageSize*8)); err != nil {
			t.Fatal(err)
		}
		for i := range len(buf) / 8 {
			out[m.lo+uint64(i)*pageSize] = binary.LittleEndian.Uint64(buf[i*8:])
		}
	}
	if len(out) == 0 {
		if strings.ContainsAny(exe, " \t\n") {
			// /proc/self/maps cannot tell such a path from its fields,
			// so readOnlyMappings leaves it alone, as it should
			t.Skipf("the test binary's path %q has white space", exe)
		}
		t.Fatal("no read-only mapping of the test binary found")
	}
	return out
}

func resident(flags map[uint64]uint64) int {
	n := 0
	for _, f := range flags {
		if f&pmPresent != 0 {
			n++
		}
	}
	return n
}

// TestRelease checks that Release lets go of this test binary's pages,
// that a private copy of one (as a debugger's breakpoint makes) keeps
// its content, and that the program runs on.
func TestRelease(t *testing.T) {
	// a private copy of a page of read-only data: made writable, written
	// with the byte it holds, made read-only again
	target := (*byte)(unsafe.Add(unsafe.Pointer(unsafe.StringData(copyMe)), pageSize))
	pg := uintptr(unsafe.Pointer(target)) &^ (pageSize - 1)
	mprotect := func(prot uintptr) {
		t.Helper()
		if _, _, e := syscall.Syscall(syscall.SYS_MPROTECT, pg, pageSize, prot); e != 0 {
			t.Fatal("mprotect:", e)
		}
	}
	mprotect(syscall.PROT_READ | syscall.PROT_WRITE)
	*target = 'x'
	mprotect(syscall.PROT_READ)

	before := exeFlags(t)
	if f, ok := before[uint64(pg)]; !ok || f&pmPresent == 0 || f&pmFile != 0 {
		t.Fatalf("page %#x of copyMe is not a private copy in a read-only mapping (flags %#x, found %v)", pg, f, ok)
	}
	n, err := Release()
	if err != nil {
		t.Fatal(err)
	}
	after := exeFlags(t)
	if n == 0 || resident(after) >= resident(before) {
		t.Errorf("Release dropped %d bytes: %d pages resident before, %d after", n, resident(before), resident(after))
	}
	if f := after[uint64(pg)]; f&pmPresent == 0 || f&pmFile != 0 {
		t.Errorf("the private copy at %#x was let go (flags %#x)", pg, f)
	}
	if *target != 'x' {
		t.Errorf("the private copy reads %q, want 'x'", *target)
	}
	t.Logf("dropped %d KB: %d pages resident before, %d after", n>>10, resident(before), resident(after))
}

// copyMe is read-only data (a string constant, in .rodata) the size of
// three pages, so that one page of it lies wholly inside.
const copyMe = x4k + x4k + x4k

const (
	x16  = "xxxxxxxxxxxxxxxx"
	x256 = x16 + x16 + x16 + x16 + x16 + x16 + x16 + x16 + x16 + x16 + x16 + x16 + x16 + x16 + x16 + x16
	x4k  = x256 + x256 + x256 + x256 + x256 + x256 + x256 + x256 + x256 + x256 + x256 + x256 + x256 + x256 + x256 + x256
)

// BenchmarkRelease is what Release costs a tool, without the faults that
// map pages again afterwards.
func BenchmarkRelease(b *testing.B) {
	for b.Loop() {
		if _, err := Release(); err != nil {
			b.Fatal(err)
		}
	}
}

// TestGrowStack checks that GrowStack returns having grown nothing but
// the stack, in either size, and from a goroutine already deep.
func TestGrowStack(t *testing.T) {
	for _, small := range []bool{false, true} {
		done := make(chan int)
		go func() {
			GrowStack(small)
			done <- deep(40, small)
		}()
		if got := <-done; got != 40 {
			t.Errorf("GrowStack(%v): deep = %d, want 40", small, got)
		}
	}
	// the frames written: each byte its index's low byte
	if a, b := grow32(true), grow8(true); a != 0xff || b != 0xff {
		t.Errorf("the frames' last bytes read back %#x and %#x, want 0xff", a, b)
	}
}

// deep recurses n frames, growing the stack again from there.
func deep(n int, small bool) int {
	if n == 0 {
		GrowStack(small)
		return 0
	}
	return 1 + deep(n-1, small)
}
