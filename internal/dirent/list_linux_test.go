package dirent

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// dirNames lists dir with os.ReadDir, sorted by name.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// listed is what the last read of d listed, in its order.
func listed(d *List) []string {
	var names []string
	for i := range d.Len() {
		names = append(names, string(d.At(i)))
	}
	return names
}

// TestListMatchesReadDir: a listing has os.ReadDir's names (sorted
// when asked, the same set when not), over directories that take several
// getdents calls and over the host's sysfs and procfs.
func TestListMatchesReadDir(t *testing.T) {
	big := t.TempDir()
	for i := range 700 { // 700 long names need several 8 KiB reads
		name := filepath.Join(big, strings.Repeat("n", 40)+string(rune('a'+i%26))+strings.Repeat("x", i%7)+"-"+strconv.Itoa(i))
		if err := os.WriteFile(name, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	os.Mkdir(filepath.Join(big, "sub dir é"), 0o700)
	dirs := []string{big, t.TempDir(), "/proc/self", "/sys/class/net", "/sys/devices/system/cpu"}
	var d List
	for _, dir := range dirs {
		if _, err := os.Stat(dir); err != nil {
			continue // sysfs is not everywhere
		}
		want := dirNames(t, dir)
		if err := d.Read(true, dir); err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		if got := listed(&d); !slices.Equal(got, want) {
			t.Errorf("%s sorted: %d names %.5q..., want %d %.5q...", dir, len(got), got, len(want), want)
		}
		if err := d.ReadPath(false, []byte(dir)); err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		got := listed(&d)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s unsorted: %d names, want %d", dir, len(got), len(want))
		}
	}
}

// TestListErrors: a missing directory and a file are the system's
// errors, and leave an empty listing.
func TestListErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	os.WriteFile(file, nil, 0o600)
	var d List
	d.Read(true, dir) // not empty before: the tempdir has f
	for _, tt := range []struct {
		path string
		want syscall.Errno
	}{{filepath.Join(dir, "missing"), syscall.ENOENT}, {file, syscall.ENOTDIR}} {
		if err := d.Read(true, tt.path); !errors.Is(err, tt.want) {
			t.Errorf("%s: %v, want %v", tt.path, err, tt.want)
		}
		if d.Len() != 0 {
			t.Errorf("%s: %d names after a failure", tt.path, d.Len())
		}
	}
}

// TestListAllocs: listing a directory again allocates nothing.
func TestListAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates for itself")
	}
	dir := t.TempDir()
	for _, n := range []string{"c", "a", "b"} {
		os.WriteFile(filepath.Join(dir, n), nil, 0o600)
	}
	var d List
	d.Read(true, dir)
	if n := testing.AllocsPerRun(20, func() { d.Read(true, dir) }); n != 0 {
		t.Errorf("%v allocations a listing, want 0", n)
	}
}

// TestListParse: records are split by their lengths, . and .. left
// out, and a length that overruns or underruns the buffer is EIO.
func TestListParse(t *testing.T) {
	good := slices.Concat(record(".", 4), record("..", 4), record("eth0", 8), record("a-much-longer-name", 8))
	tests := []struct {
		name string
		in   []byte
		want []string
		err  error
	}{
		{"records", good, []string{"eth0", "a-much-longer-name"}, nil},
		{"cut header", good[:10], nil, syscall.EIO},
		{"cut record", good[:len(good)-3], []string{"eth0"}, syscall.EIO},
		{"zero length", make([]byte, 24), nil, syscall.EIO},
	}
	for _, tt := range tests {
		var d List
		err := d.parse(tt.in)
		var got []string
		for i := range d.ends {
			got = append(got, string(d.name(i)))
		}
		if !errors.Is(err, tt.err) && !(err == nil && tt.err == nil) || !slices.Equal(got, tt.want) {
			t.Errorf("%s: %q, %v; want %q, %v", tt.name, got, err, tt.want, tt.err)
		}
	}
}

// FuzzListParse: any bytes parse without panicking, into names without
// NUL bytes that fit in what was given.
func FuzzListParse(f *testing.F) {
	f.Add(slices.Concat(record(".", 4), record("eth0", 8)))
	f.Add([]byte{})
	f.Add(make([]byte, 19))
	f.Fuzz(func(t *testing.T, b []byte) {
		var d List
		d.parse(b)
		total := 0
		for i := range d.ends {
			n := d.name(i)
			if len(n) == 0 || bytes.IndexByte(n, 0) >= 0 {
				t.Fatalf("name %q", n)
			}
			total += len(n)
		}
		if total > len(b) {
			t.Fatalf("%d bytes of names from %d", total, len(b))
		}
	})
}

// TestListBound: a directory with more entries than the bound is an
// error and an empty listing, not its first entries; one at the bound is
// listed whole.
func TestListBound(t *testing.T) {
	dir := t.TempDir()
	for i := range 600 { // more than one 8 KiB getdents buffer
		if err := os.WriteFile(filepath.Join(dir, strings.Repeat("f", 20)+strconv.Itoa(i)), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		limit int
		err   error
		n     int
	}{
		{limit: 600, n: 600},
		{limit: 599, err: ErrTooManyEntries},
		{limit: 10, err: ErrTooManyEntries},
	} {
		d := List{Limit: tc.limit}
		err := d.Read(true, dir)
		if !errors.Is(err, tc.err) || d.Len() != tc.n {
			t.Errorf("limit %d: %d names, %v; want %d, %v", tc.limit, d.Len(), err, tc.n, tc.err)
		}
	}
}
