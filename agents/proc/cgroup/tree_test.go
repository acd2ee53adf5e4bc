package cgroup

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The fixture trees under testdata/*.tree are files laid out like / (a
// PROC_STATSPATH): after a comment, each file is a "-- path --" line and
// its lines up to the next such line; a path ending in "/" is a
// directory, which where a file is expected is a file that opens but
// cannot be read.

// buildTree writes the tree in testdata/name.tree under a new directory
// and returns it.
func buildTree(t testing.TB, name string) string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name+".tree"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	root := t.TempDir()
	var cur *strings.Builder
	var path string
	flush := func() {
		if cur == nil {
			return
		}
		p := filepath.Join(root, path)
		if strings.HasSuffix(path, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			return
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(cur.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(l, "-- ") && strings.HasSuffix(l, " --") {
			flush()
			path = strings.TrimSuffix(strings.TrimPrefix(l, "-- "), " --")
			cur = &strings.Builder{}
			continue
		}
		if cur != nil {
			cur.WriteString(l + "\n")
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	flush()
	return root
}
