package pmproxy

import (
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestReadOnlyFileMappings(t *testing.T) {
	f, err := os.Open("testdata/smaps.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := readOnlyFileMappings(f)
	if err != nil {
		t.Fatal(err)
	}
	// Kept: the binary's headers and code, libc's read-only head. Left:
	// the binary's data (writable), the heap, libc's code (nothing
	// resident), libc's relocated read-only data (written pages) and the
	// vdso (no file).
	want := []fileMapping{
		{0x400000, 0x401000, 4},
		{0x401000, 0x900000, 3972},
		{0x7f0000000000, 0x7f0000028000, 160},
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
