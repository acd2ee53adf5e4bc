package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// TestXZFiltersAgainstPCP compresses a volume with xz's branch-converter
// and delta filters before LZMA2, in blocks, which libpcp reads through
// liblzma a block at a time: whole, and with one block damaged.
func TestXZFiltersAgainstPCP(t *testing.T) {
	needQA(t)
	pcp := pcptest.NeedTool(t, "pmdumplog")
	if _, err := exec.LookPath("xz"); err != nil {
		pcptest.Missing(t, "xz is not installed")
	}
	t.Setenv("TZ", "UTC")
	for _, tc := range []struct {
		name    string
		filters []string
		damage  bool
	}{
		{"x86", []string{"--x86"}, false},
		{"arm64", []string{"--arm64"}, false},
		{"delta", []string{"--delta=dist=4"}, false},
		{"delta x86 sparc", []string{"--delta=dist=8", "--x86", "--sparc"}, false},
		{"x86 damaged", []string{"--x86"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			argv := append(append([]string{"xz", "-c", "--block-size=65536"}, tc.filters...), "--lzma2")
			archive := writeCompressed(t, "20041125", ".0", ".xz", argv, func(b []byte) []byte {
				if tc.damage {
					b[len(b)/2] ^= 0x55
				}
				return b
			})
			comparePCP(t, pcp, archive)
		})
	}
}

// writeCompressed copies QA archive base into a new directory, the file
// ending in which compressed by argv (then changed by damage, if not
// nil) under its name plus suffix, and returns the copy's base name.
func writeCompressed(t *testing.T, base, which, suffix string, argv []string, damage func([]byte) []byte) string {
	t.Helper()
	dir := t.TempDir()
	files, err := filepath.Glob(filepath.Join(qaDir, base+".*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("QA archive %s: %v", base, err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(f)
		if strings.HasSuffix(name, which) {
			b = runFilter(t, argv, b)
			if damage != nil {
				b = damage(b)
			}
			name += suffix
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, base)
}
