package pmproxy

import (
	"os"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

func TestReadOnlyFileMappings(t *testing.T) {
	f, err := os.Open("testdata/smaps.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := readOnlyFileMappings(f, "fe:00", "1234")
	if err != nil {
		t.Fatal(err)
	}
	// Kept: the binary's headers, code and read-only data, libc's code.
	// Left: the binary's data (writable), the heap, libc's read-only head
	// (not code, not the binary), libc's relocated read-only data (written
	// pages), another file's code with nothing resident and the vdso (no
	// file).
	want := []fileMapping{
		{0x400000, 0x401000, 4},
		{0x401000, 0x900000, 3972},
		{0x900000, 0xf0d000, 6100},
		{0x7f0000028000, 0x7f00001b0000, 916},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

func rssFileKiB(t *testing.T) int {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "RssFile:" {
			n, _ := strconv.Atoi(f[1])
			return n
		}
	}
	t.Fatal("no RssFile in /proc/self/status")
	return 0
}

// TestReleaseFilePages releases the test binary's own read-only file
// pages: the file-backed resident figure falls by about what it says it
// released, and the program (whose code was just unmapped) goes on
// running, its data intact.
func TestReleaseFilePages(t *testing.T) {
	if _, err := os.Stat("/proc/self/smaps"); err != nil {
		t.Skip("no /proc/self/smaps")
	}
	data := strings.Repeat("kept", 1000)
	before := rssFileKiB(t)
	released, err := ReleaseFilePages()
	if err != nil {
		t.Fatal(err)
	}
	after := rssFileKiB(t)
	t.Logf("file-backed %d KiB before, %d after, %d released", before, after, released)
	if released <= 0 || released > before {
		t.Errorf("released %d KiB of %d", released, before)
	}
	// What ran between the two readings faulted some pages back; the
	// test binary's own code and tables make most of what was resident.
	if after >= before {
		t.Errorf("file-backed resident memory %d KiB after release, %d before", after, before)
	}
	if data != strings.Repeat("kept", 1000) {
		t.Error("data changed")
	}
	if _, err := ReleaseFilePages(); err != nil {
		t.Fatal(err)
	}
}

// TestDevStringAsMaps: the binary's device, as devString writes it, is
// the one /proc/self/maps shows on the binary's mappings.
func TestDevStringAsMaps(t *testing.T) {
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Skip("no /proc/self/maps")
	}
	fi, err := os.Stat("/proc/self/exe")
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	ino := strconv.FormatUint(st.Ino, 10)
	found := 0
	for _, l := range strings.Split(string(maps), "\n") {
		if f := strings.Fields(l); len(f) >= 6 && f[4] == ino {
			found++
			if f[3] != devString(uint64(st.Dev)) {
				t.Errorf("maps shows %s, devString %s: %s", f[3], devString(uint64(st.Dev)), l)
			}
		}
	}
	if found == 0 {
		t.Errorf("no mapping of inode %s in\n%s", ino, maps)
	}
}
