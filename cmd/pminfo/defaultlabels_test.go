package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// relabelled copies the QA archive 20041125 (version 2, from before
// labels: no context labels of its own) under dir with its label's host
// name replaced in each file, and returns the copy's name.
func relabelled(t *testing.T, dir, tag, host string) string {
	t.Helper()
	src := clitest.QAArchive(t, "20041125")
	files, err := filepath.Glob(src + ".*")
	if err != nil || len(files) == 0 {
		t.Fatalf("%s: no files (%v)", src, err)
	}
	// a version 2 label: length, magic, pid, start (2 words), volume,
	// then the host name in 64 bytes
	const off, size = 24, 64
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(host) >= size || len(b) < off+size || !bytes.HasPrefix(b[off:], []byte("mortenb.oslo.sgi.com\x00")) {
			t.Fatalf("%s: not the label expected", f)
		}
		copy(b[off:off+size], append([]byte(host), make([]byte, size-len(host))...))
		if err := os.WriteFile(filepath.Join(dir, tag+f[len(src):]), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, tag)
}

// TestDefaultLabelsAgainstPCP compares pminfo -l with PCP's on archives
// without context labels, whose hosts' names PCP puts into its fallback
// label set as they are: JSON escapes kept, a text that does not parse
// leaving no labels, one that closes the string early making more labels.
func TestDefaultLabelsAgainstPCP(t *testing.T) {
	dir := t.TempDir()
	var cases []clitest.Case
	for _, h := range []struct{ tag, host string }{
		{"plain", "plain.example.com"},
		{"escape", `a\tb`},
		{"utf8", "\xc3\xa9.example"},
		{"quote", `a"b`},
		{"control", "a\x01b"},
		{"closed", `a","site":"x`},
	} {
		a := relabelled(t, dir, h.tag, h.host)
		cases = append(cases, clitest.Case{Name: h.tag, Args: []string{"-l", "-a", a, "mem.physmem", "kernel.all.load"}})
	}
	clitest.CompareLocal(t, "pminfo", run, cases)
}
