package main

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// TestCompressedAgainstPCP compares pmlogcheck with PCP's on copies of a
// QA archive with compressed files: the volume in .xz blocks of 1 MiB
// (pass 0 reads it a block at a time), gzip and bzip2 files, and an .xz
// volume whose last block, starting at a record's end, is damaged: pass
// 0 finds the records before it whole, and pass 1 takes the volume's
// size from the .xz index, as libpcp's fstat gives it, so no index entry
// past the damage is reported past the end.
func TestCompressedAgainstPCP(t *testing.T) {
	orig := clitest.QAArchive(t, "20180102")
	vol, err := os.ReadFile(orig + ".0")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	copyPlain := func(base string, suffixes ...string) {
		for _, s := range suffixes {
			b, err := os.ReadFile(orig + s)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(base+s, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	compress := func(dst string, in []byte, prog string, args ...string) []byte {
		out := pcptest.Filter(t, in, prog, args...)
		if err := os.WriteFile(dst, out, 0o644); err != nil {
			t.Fatal(err)
		}
		return out
	}
	blocks := filepath.Join(dir, "blocks")
	copyPlain(blocks, ".meta", ".index")
	compress(blocks+".0.xz", vol, "xz", "-c", "--block-size=1MiB")

	gz := filepath.Join(dir, "gz")
	copyPlain(gz, ".index")
	compress(gz+".0.gz", vol, "gzip", "-c")
	meta, err := os.ReadFile(orig + ".meta")
	if err != nil {
		t.Fatal(err)
	}
	compress(gz+".meta.bz2", meta, "bzip2", "-c")

	damaged := filepath.Join(dir, "damaged")
	copyPlain(damaged, ".meta", ".index")
	cut := recordEndNear(vol, len(vol)/3)
	z := compress(damaged+".0.xz", vol, "xz", "-c", "--block-list="+strconv.Itoa(cut)+","+strconv.Itoa(len(vol)))
	// the last block's compressed data, well inside it: the stream's
	// index and footer (a few dozen bytes at the end) stay whole
	z[len(z)-len(z)/4] ^= 0x55
	if err := os.WriteFile(damaged+".0.xz", z, 0o644); err != nil {
		t.Fatal(err)
	}

	var cases []clitest.Case
	for _, base := range []string{blocks, gz, damaged} {
		for _, opts := range [][]string{{}, {"-v"}, {"-l", "-m"}} {
			cases = append(cases, clitest.Case{Name: filepath.Base(base) + " " + strings.Join(opts, " "), Args: append(opts, base)})
		}
	}
	clitest.CompareDamaged(t, "pmlogcheck", runMain, cases)
}

// recordEndNear is the end of the first record of volume b that ends at
// or after off.
func recordEndNear(b []byte, off int) int {
	pos := 0
	for pos+4 <= len(b) {
		n := int(binary.BigEndian.Uint32(b[pos:]))
		if n < 8 || pos+n > len(b) {
			break
		}
		pos += n
		if pos >= off {
			return pos
		}
	}
	return pos
}
