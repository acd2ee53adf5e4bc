package archive

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestArchiveNamesAsReaddir(t *testing.T) {
	dir := t.TempDir()
	files := []string{"a.0", "a.1", "a.meta", "a.index", "ab.0", "b.0", ".hidden", "a.0.xz"}
	// names long enough that the listing takes several reads of the buffer
	for i := range 300 {
		files = append(files, fmt.Sprintf("long.%s.%d", strings.Repeat("x", 60), i))
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "a.2"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, base := range []string{"a", "ab", "b", ".", "long.", "zz", "a.0"} {
		got, err := archiveNames(dir, base)
		if err != nil {
			t.Fatal(err)
		}
		want, err := readdirNames(dir, base)
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("base %q: got %q, want %q", base, got, want)
		}
	}
}

func TestArchiveNamesErrorsAsReaddir(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{filepath.Join(dir, "missing"), file} {
		_, err := archiveNames(d, "a")
		_, want := readdirNames(d, "a")
		if err == nil || want == nil || err.Error() != want.Error() {
			t.Errorf("%s: got %v, want %v", d, err, want)
		}
	}
}
