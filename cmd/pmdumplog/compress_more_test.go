package main

import (
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/packfmt"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// TestXZFiltersAgainstPCP compresses a volume with xz's branch-converter
// and delta filters before LZMA2, in blocks, which libpcp reads through
// liblzma a block at a time (.xz) or through xz -dc (.lzma): whole, and
// with one block damaged.
func TestXZFiltersAgainstPCP(t *testing.T) {
	needQA(t)
	pcp := pcptest.NeedTool(t, "pmdumplog")
	if _, err := exec.LookPath("xz"); err != nil {
		pcptest.Missing(t, "xz is not installed")
	}
	t.Setenv("TZ", "UTC")
	for _, tc := range []struct {
		name, suffix string
		filters      []string
		damage       bool
	}{
		{"x86", ".xz", []string{"--x86"}, false},
		{"arm64", ".xz", []string{"--arm64"}, false},
		{"delta", ".xz", []string{"--delta=dist=4"}, false},
		{"delta x86 sparc", ".xz", []string{"--delta=dist=8", "--x86", "--sparc"}, false},
		{"x86 damaged", ".xz", []string{"--x86"}, true},
		// .lzma goes through xz -dc, which reads .xz content too
		{"x86 as lzma", ".lzma", []string{"--x86"}, false},
		{"x86 as lzma damaged", ".lzma", []string{"--x86"}, true},
		{"x86 as lzma padded", ".lzma", []string{"--x86"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			argv := append(append([]string{"xz", "-c", "--block-size=65536"}, tc.filters...), "--lzma2")
			archive := writeCompressed(t, "20041125", ".0", tc.suffix, argv, func(b []byte) []byte {
				if tc.damage {
					b[len(b)/2] ^= 0x55
				}
				if strings.HasSuffix(tc.name, "padded") {
					b = append(b, 0, 0, 0, 0) // stream padding, which xz -dc reads
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
	return writeCompressedBy(t, base, which, suffix, func(b []byte) []byte { return runFilter(t, argv, b) }, damage)
}

// writeCompressedBy is writeCompressed with the compression a function.
func writeCompressedBy(t *testing.T, base, which, suffix string, compress, damage func([]byte) []byte) string {
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
			b = compress(b)
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

// TestGzipFamilyAgainstPCP gives libpcp's gzip -dc the other formats it
// reads under a .gz, .z or .Z name, made by their own programs: zip
// (whole, truncated, and Zip64, as zip writes reading a pipe, whose
// sizes gzip refuses) and gzip members with gzip 0.5's magic number.
func TestGzipFamilyAgainstPCP(t *testing.T) {
	needQA(t)
	pcp := pcptest.NeedTool(t, "pmdumplog")
	t.Setenv("TZ", "UTC")
	cut := func(b []byte) []byte { return b[:len(b)*6/10] }
	// gzip 0.5's magic number, which gzip still reads as its own
	oldMagic := func(b []byte) []byte { b[1] = 0x9e; return b }
	for _, tc := range []struct {
		name, file, suffix string
		argv               []string
		damage             func([]byte) []byte
	}{
		{"zip", ".0", ".gz", []string{"zip", "-q", "-fz-"}, nil},
		{"zip meta", ".meta", ".z", []string{"zip", "-q", "-fz-"}, nil},
		{"zip truncated", ".0", ".gz", []string{"zip", "-q", "-fz-"}, cut},
		{"zip64", ".0", ".Z", []string{"zip", "-q"}, nil},
		{"old gzip magic", ".0", ".gz", []string{"gzip", "-c"}, oldMagic},
		{"old gzip magic truncated", ".0", ".gz", []string{"gzip", "-c"}, func(b []byte) []byte { return cut(oldMagic(b)) }},
		{"old gzip magic meta", ".meta", ".z", []string{"gzip", "-c"}, oldMagic},
	} {
		if _, err := exec.LookPath(tc.argv[0]); err != nil {
			pcptest.Missing(t, tc.argv[0]+" is not installed (scripts/setup-pcp.sh)")
		}
		t.Run(tc.name, func(t *testing.T) {
			comparePCP(t, pcp, writeCompressed(t, "20041125", tc.file, tc.suffix, tc.argv, tc.damage))
		})
	}
}

// TestPackAgainstPCP gives libpcp's gzip -dc a volume in pack(1)'s
// format (made by packfmt: no Debian package writes it) under .z, its
// old suffix: whole, truncated, with a length that does not match, and
// followed by garbage.
func TestPackAgainstPCP(t *testing.T) {
	needQA(t)
	pcp := pcptest.NeedTool(t, "pmdumplog")
	if _, err := exec.LookPath("gzip"); err != nil {
		pcptest.Missing(t, "gzip is not installed")
	}
	t.Setenv("TZ", "UTC")
	for _, tc := range []struct {
		name   string
		damage func([]byte) []byte
	}{
		{"whole", nil},
		{"twice", func(b []byte) []byte { return append(b, b...) }},
		{"truncated", func(b []byte) []byte { return b[:len(b)*6/10] }},
		{"length", func(b []byte) []byte { b[5]++; return b }},
		{"garbage", func(b []byte) []byte { return append(b, "junk"...) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			comparePCP(t, pcp, writeCompressedBy(t, "20041125", ".0", ".z", packfmt.Encode, tc.damage))
		})
	}
}

// TestLZHAgainstPCP gives libpcp's gzip -dc a volume in SCO's LZH form:
// the -lh5- data a real LHA program (jlha) wrote for QA archive
// 20041125's volume (archive's golden, see its testdata README), after
// gzip's LZH magic: whole, truncated (gzip reads zeros past the end, so
// the records cut off are damaged, not missing), and with a flipped
// byte.
func TestLZHAgainstPCP(t *testing.T) {
	needQA(t)
	pcp := pcptest.NeedTool(t, "pmdumplog")
	if _, err := exec.LookPath("gzip"); err != nil {
		pcptest.Missing(t, "gzip is not installed")
	}
	lha, err := os.ReadFile(filepath.Join("..", "..", "archive", "testdata", "compress", "20041125.0.lzh"))
	if err != nil {
		t.Fatal(err)
	}
	// a level 2 header: its size, then "-lh5-" and the packed size
	if len(lha) < 22 || string(lha[2:7]) != "-lh5-" || lha[20] != 2 {
		t.Fatal("20041125.0.lzh: not a level 2 -lh5- archive")
	}
	at, size := int(binary.LittleEndian.Uint16(lha)), int(binary.LittleEndian.Uint32(lha[7:]))
	stream := append([]byte{0x1f, 0xa0}, lha[at:at+size]...)
	t.Setenv("TZ", "UTC")
	for _, tc := range []struct {
		name   string
		damage func([]byte) []byte
	}{
		{"whole", nil},
		{"truncated", func(b []byte) []byte { return b[:len(b)*6/10] }},
		{"flipped", func(b []byte) []byte { b[len(b)/2] ^= 0x10; return b }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lzh := func([]byte) []byte { return append([]byte(nil), stream...) }
			comparePCP(t, pcp, writeCompressedBy(t, "20041125", ".0", ".gz", lzh, tc.damage))
		})
	}
}
