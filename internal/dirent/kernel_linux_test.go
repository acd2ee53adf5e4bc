package dirent

import (
	"os"
	"slices"
	"syscall"
	"testing"
)

// TestNextOnKernel reads a real directory's records and finds what
// os.ReadDir finds, plus "." and "..".
func TestNextOnKernel(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"a", "bb", "a name with spaces"} {
		if err := os.WriteFile(dir+"/"+n, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 4096)
	var got []string
	for {
		n, err := syscall.Getdents(int(f.Fd()), buf)
		if err != nil {
			t.Fatal(err)
		}
		if n <= 0 {
			break
		}
		for b := buf[:n]; ; {
			name, _, rest, ok := Next(b)
			if !ok {
				break
			}
			got, b = append(got, string(name)), rest
		}
	}
	slices.Sort(got)
	want := []string{".", "..", "a", "a name with spaces", "bb"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
