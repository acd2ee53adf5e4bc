package cgroup

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// longNames makes n files in dir named by 250 characters each, so that
// a listing reads some 270 bytes an entry.
func longNames(t *testing.T, dir string, n int) {
	t.Helper()
	stem := strings.Repeat("n", 240)
	for i := range n {
		if err := os.WriteFile(filepath.Join(dir, stem+pad10(i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// pad10 is i in ten decimal digits.
func pad10(i int) string {
	b := []byte("0000000000")
	for k := len(b) - 1; i > 0; k-- {
		b[k] = byte('0' + i%10)
		i /= 10
	}
	return string(b)
}

// TestReadDirBound: what one listing reads is bounded across the
// buffers it grows through, not only within the last of them.
func TestReadDirBound(t *testing.T) {
	dir := t.TempDir()
	longNames(t, dir, 2000) // about 540 KB of records
	const limit = 64 << 10
	fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	ents, buf := readDirFD(fd, nil, nil, limit)
	read := 0
	for _, e := range ents {
		read += 19 + len(e.name) + 1 // a record at least
	}
	// One read past the bound may finish the record it began.
	if read > limit+4096 {
		t.Errorf("%d entries, at least %d bytes read, bound %d", len(ents), read, limit)
	}
	if len(ents) == 0 {
		t.Error("nothing listed")
	}
	if cap(buf) > 2*limit {
		t.Errorf("buffer of %d bytes for a bound of %d", cap(buf), limit)
	}
}

// TestWalkDropsLargeBuffers: after a walk through a large directory the
// source keeps no large listing buffer, and no entry points into one.
func TestWalkDropsLargeBuffers(t *testing.T) {
	root := v2Root(t, []string{"a/b"})
	longNames(t, filepath.Join(root, "sys/fs/cgroup/a"), 2000)
	s := New(Options{Root: root})
	s.Refresh([]pcp.PMID{cpuUsage})
	if got := activeNames(t, s, InDomCgroup2); len(got) != 3 {
		t.Fatalf("cgroups %q, want /, /a, /a/b", got)
	}
	for d, b := range s.dirBufs {
		if cap(b) > maxKeptDirBuf {
			t.Errorf("depth %d: a buffer of %d bytes kept", d, cap(b))
		}
	}
	for d, ents := range s.dirEnts {
		for i, e := range ents[:cap(ents)] {
			if e.name != "" {
				t.Errorf("depth %d: entry %d (%.20q) kept after the walk", d, i, e.name)
				break
			}
		}
	}
}
