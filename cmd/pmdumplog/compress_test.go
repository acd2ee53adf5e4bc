package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// compressors are the programs that make each compressed form libpcp
// reads, by suffix.
var compressors = []struct {
	suffix string
	argv   []string
}{
	{".gz", []string{"gzip", "-c"}},
	{".z", []string{"gzip", "-c"}},
	{".Z", []string{"compress", "-c"}},
	{".bz2", []string{"bzip2", "-c"}},
	{".bz", []string{"bzip2", "-c"}},
	{".xz", []string{"xz", "-c"}},
	{".lzma", []string{"xz", "--format=lzma", "-c"}},
}

// damage is what a case does to one compressed file of the archive.
type damage struct {
	name string
	file string // the file's suffix before compression: "0", "meta", ...
	do   func(b []byte) []byte
}

var damages = []damage{
	{name: "whole"},
	{"truncated volume", "0", func(b []byte) []byte { return b[:len(b)*6/10] }},
	{"truncated middle volume", "1", func(b []byte) []byte { return b[:len(b)*6/10] }},
	{"truncated meta", "meta", func(b []byte) []byte { return b[:len(b)*6/10] }},
	{"truncated index", "index", func(b []byte) []byte { return b[:len(b)/2] }},
	{"flipped byte", "0", func(b []byte) []byte { b[len(b)*6/10] ^= 0x55; return b }},
	{"trailing garbage", "0", func(b []byte) []byte { return append(b, "junk"...) }},
	{"trailing zeros", "0", func(b []byte) []byte { return append(b, make([]byte, 64)...) }},
}

// childNoise matches what libpcp's decompressing child (gzip, bzip2, xz)
// writes to the shared stderr: not libpcp's, so not compared.
var childNoise = regexp.MustCompile(`(?m)^(gzip|bzip2|xz): .*\n|^\t.*\n|^(It is possible|You can use|data from undamaged|\s*perhaps it is).*\n|^\n`)

// TestCompressedAgainstPCP compresses QA archives with each program and
// suffix libpcp 6.0.3 reads, whole and damaged (truncated volumes,
// metadata and index, a flipped byte, trailing garbage or zeros), and
// compares pmdumplog -a with PCP's: stdout, exit status and pmdumplog's
// own messages.
func TestCompressedAgainstPCP(t *testing.T) {
	needQA(t)
	pcp := pcptest.NeedTool(t, "pmdumplog")
	t.Setenv("TZ", "UTC")
	for _, c := range compressors {
		if _, err := exec.LookPath(c.argv[0]); err != nil {
			pcptest.Missing(t, c.argv[0]+" is not installed (scripts/setup-pcp.sh)")
		}
	}
	// a version 2 archive with <mark> records, a version 3 one, and one
	// of four volumes
	for _, base := range []string{"mark-bug", "omnibus_v3", "ok-mv-bar"} {
		for _, c := range compressors {
			dir := t.TempDir()
			plain := compressArchive(t, base, dir, c.argv)
			for _, d := range damages {
				// .z and .bz go through .gz's and .bz2's decoders, and
				// the larger archives need only the main cases
				main := d.name == "whole" || d.name == "truncated volume"
				multi := base == "ok-mv-bar"
				if d.file == "1" && !multi || multi && !main && d.name != "truncated middle volume" ||
					base == "omnibus_v3" && !main || (c.suffix == ".z" || c.suffix == ".bz") && !main {
					continue
				}
				t.Run(base+c.suffix+" "+d.name, func(t *testing.T) {
					work := t.TempDir()
					for _, f := range plain {
						b := compressed(t, dir, f)
						if d.do != nil && strings.HasSuffix(f, "."+d.file) {
							b = d.do(b)
						}
						if err := os.WriteFile(filepath.Join(work, f+c.suffix), b, 0o644); err != nil {
							t.Fatal(err)
						}
					}
					comparePCP(t, pcp, filepath.Join(work, base))
				})
			}
		}
	}
}

// TestXZBlocksAgainstPCP damages one block of an .xz volume, as libpcp
// reads such a volume a block at a time: a later block of several (the
// blocks before and after it read), the first of several, and the only
// one, beyond the label (libpcp's read of the label fails).
func TestXZBlocksAgainstPCP(t *testing.T) {
	needQA(t)
	pcp := pcptest.NeedTool(t, "pmdumplog")
	if _, err := exec.LookPath("xz"); err != nil {
		pcptest.Missing(t, "xz is not installed")
	}
	t.Setenv("TZ", "UTC")
	for _, tc := range []struct {
		name   string
		blocks bool
		at     func(n int) int
	}{
		{"third of six", true, func(n int) int { return n / 2 }},
		{"first of six", true, func(n int) int { return 2000 }},
		{"only block", false, func(n int) int { return n * 8 / 10 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range []string{"20041125.0", "20041125.meta", "20041125.index"} {
				b, err := os.ReadFile(filepath.Join(qaDir, f))
				if err != nil {
					t.Fatal(err)
				}
				if strings.HasSuffix(f, ".0") {
					argv := []string{"xz", "-c"}
					if tc.blocks {
						argv = append(argv, "--block-size=65536")
					}
					b = runFilter(t, argv, b)
					b[tc.at(len(b))] ^= 0x55
					f += ".xz"
				}
				if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			comparePCP(t, pcp, filepath.Join(dir, "20041125"))
		})
	}
}

// compressArchive writes each file of QA archive base, compressed by
// argv, into dir under its plain name plus ".c", and returns the plain
// names.
func compressArchive(t *testing.T, base, dir string, argv []string) []string {
	files, err := filepath.Glob(filepath.Join(qaDir, base+".*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("QA archive %s: %v", base, err)
	}
	var names []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(f)
		if err := os.WriteFile(filepath.Join(dir, name+".c"), runFilter(t, argv, b), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	return names
}

func compressed(t *testing.T, dir, name string) []byte {
	b, err := os.ReadFile(filepath.Join(dir, name+".c"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func runFilter(t *testing.T, argv []string, in []byte) []byte {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdin = bytes.NewReader(in)
	out, err := cmd.Output()
	// compress exits 2 when the output is no smaller, having written it
	if ee, ok := err.(*exec.ExitError); err != nil && !(ok && argv[0] == "compress" && ee.ExitCode() == 2) {
		t.Fatalf("%s: %v", strings.Join(argv, " "), err)
	}
	return out
}

// comparePCP runs PCP's pmdumplog -a and ours on archive and compares.
func comparePCP(t *testing.T, pcp, archive string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, pcp, "-a", archive)
	wantOut, wantErr, wantCode := clitest.RunCmd(t, cmd)
	var out, errb bytes.Buffer
	code := run([]string{"pmdumplog", "-a", archive}, &out, &errb)
	if !bytes.Equal(out.Bytes(), wantOut) {
		t.Errorf("stdout differs from PCP's:\n%s", firstDiff("stdout", out.Bytes(), wantOut))
	}
	if code != wantCode {
		t.Errorf("exit %d, PCP's %d", code, wantCode)
	}
	gotErr := childNoise.ReplaceAllString(errb.String(), "")
	wantErrs := childNoise.ReplaceAllString(string(wantErr), "")
	if gotErr != wantErrs {
		t.Errorf("stderr %q, PCP's %q (all of it %q)", gotErr, wantErrs, string(wantErr))
	}
}
