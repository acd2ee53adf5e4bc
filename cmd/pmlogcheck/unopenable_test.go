package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestUnopenableFilesAgainstPCP compares pmlogcheck on archives with a
// file that does not open (found by the sweep of cut QA archives): an
// .xz file cut short, whose decompression leaves PM_ERR_LOGREC in errno
// (printed as the C library's unknown error), and a metadata file that
// is a dangling link. pmlogcheck tells a file's kind only once it is
// open, so a metadata file that does not open is also missing.
func TestUnopenableFilesAgainstPCP(t *testing.T) {
	orig := clitest.QAArchive(t, "20180606")
	cutData := clitest.CopyDamaged(t, orig, t.TempDir(), clitest.Damage{Suffix: ".0.xz", Kind: "truncate", Off: 141952})
	cutMeta := clitest.CopyDamaged(t, orig, t.TempDir(), clitest.Damage{Suffix: ".meta.xz", Kind: "truncate", Off: 16514})
	dir := t.TempDir()
	secs := clitest.QAArchive(t, "sample-secs")
	dangling := filepath.Join(dir, "x")
	for suffix, target := range map[string]string{".0": secs + ".0", ".index": secs + ".index", ".meta": filepath.Join(dir, "nowhere")} {
		if err := os.Symlink(target, dangling+suffix); err != nil {
			t.Fatal(err)
		}
	}
	var cases []clitest.Case
	for _, base := range []string{cutData, cutMeta, dangling} {
		for _, opts := range [][]string{{"-v"}, {"-l", "-m", "-w"}, {}} {
			cases = append(cases, clitest.Case{Name: filepath.Base(filepath.Dir(base)) + " " + filepath.Base(base), Args: append(opts, base)})
		}
	}
	clitest.CompareDamaged(t, "pmlogcheck", runMain, cases)
}
