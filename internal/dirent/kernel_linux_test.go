package dirent

import (
	"errors"
	"os"
	"slices"
	"syscall"
	"testing"
)

// TestEachOnKernel reads a real directory's records and finds what
// os.ReadDir finds, plus "." and "..", with their types; fn's error
// stops the reading and is returned, and a file that is no directory
// is ENOTDIR.
func TestEachOnKernel(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"a", "bb", "a name with spaces"} {
		if err := os.WriteFile(dir+"/"+n, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(dir+"/sub", 0o700); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var got []string
	types := map[string]byte{}
	// A small buffer: several reads.
	err = Each(int(f.Fd()), make([]byte, 64), func(name []byte, typ byte) error {
		got = append(got, string(name))
		types[string(name)] = typ
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	want := []string{".", "..", "a", "a name with spaces", "bb", "sub"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if types["sub"] != syscall.DT_DIR || types["bb"] != syscall.DT_REG {
		t.Errorf("types: sub %d, bb %d; want %d, %d", types["sub"], types["bb"], syscall.DT_DIR, syscall.DT_REG)
	}

	g, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	stop := errors.New("stop")
	calls := 0
	if err := Each(int(g.Fd()), make([]byte, 4096), func([]byte, byte) error { calls++; return stop }); err != stop || calls != 1 {
		t.Errorf("fn's error: %v after %d calls, want %v after 1", err, calls, stop)
	}

	h, err := os.Open(dir + "/a")
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if err := Each(int(h.Fd()), make([]byte, 4096), func([]byte, byte) error { return nil }); err != syscall.ENOTDIR {
		t.Errorf("a file: %v, want %v", err, syscall.ENOTDIR)
	}
}
