package archive

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// decodeGzipFamily reads b as gzip -dc would.
func decodeGzipFamily(b []byte) ([]byte, error) {
	var out bytes.Buffer
	_, err := io.Copy(&out, &gzipFamily{br: bufio.NewReader(bytes.NewReader(b))})
	return out.Bytes(), err
}

// gzipDC runs gzip -dc on b, written to a file in dir; failed is true
// for any exit status but 0 (a warning too), as libpcp sees it.
func gzipDC(t *testing.T, gz, dir string, b []byte) (out []byte, failed bool) {
	t.Helper()
	f := filepath.Join(dir, "in.gz")
	if err := os.WriteFile(f, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(gz, "-dc", f).Output()
	return out, err != nil
}

// compareGzip checks our reading of b against gzip -dc's: both fail, or
// neither and with the same bytes; on a failure, what we gave before the
// error is a prefix of want when prefix is set.
func compareGzip(t *testing.T, gz, dir, name string, b, want []byte, prefix bool) {
	t.Helper()
	gzOut, gzFailed := gzipDC(t, gz, dir, b)
	got, err := decodeGzipFamily(b)
	switch {
	case gzFailed != (err != nil):
		t.Errorf("%s: %d bytes, error %v; gzip -dc %d bytes, failed %v", name, len(got), err, len(gzOut), gzFailed)
	case err == nil && !bytes.Equal(got, gzOut):
		t.Errorf("%s: %d bytes differ from gzip -dc's %d", name, len(got), len(gzOut))
	case err != nil && prefix && !bytes.HasPrefix(want, got):
		t.Errorf("%s: the %d bytes before the error (%v) are not the content's", name, len(got), err)
	}
}

// TestZipAgainstGzip makes zip files with the real zip(1) (deflated and
// stored, to a file and to a pipe, so with data descriptors, read from
// a pipe, so Zip64, two entries) and reads them as gzip -dc reads them,
// whole and damaged.
func TestZipAgainstGzip(t *testing.T) {
	zipProg, err := exec.LookPath("zip")
	if err != nil {
		t.Skip("zip is not installed (Debian package zip)")
	}
	gz, err := exec.LookPath("gzip")
	if err != nil {
		t.Skip("gzip is not installed")
	}
	dir := t.TempDir()
	data := filterInput(t, 200000)
	small := []byte("kernel.all.load 1 minute\n")
	for _, c := range []struct {
		name string
		data []byte
	}{{"data", data}, {"small", small}, {"empty", nil}} {
		if err := os.WriteFile(filepath.Join(dir, c.name), c.data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	type made struct {
		name string
		z    []byte
		want []byte
	}
	var cases []made
	run := func(name string, want []byte, stdin []byte, args ...string) {
		cmd := exec.Command(zipProg, append([]string{"-q", "-X"}, args...)...)
		cmd.Dir = dir
		cmd.Stdin = bytes.NewReader(stdin)
		z, err := cmd.Output()
		if err != nil {
			t.Fatalf("zip %v: %v", args, err)
		}
		if len(args) > 0 && filepath.Ext(args[0]) == ".zip" {
			if z, err = os.ReadFile(filepath.Join(dir, args[0])); err != nil {
				t.Fatal(err)
			}
			os.Remove(filepath.Join(dir, args[0]))
		}
		cases = append(cases, made{name, z, want})
	}
	run("deflated", data, nil, "a.zip", "data")
	run("deflated -9", data, nil, "a.zip", "-9", "data")
	run("stored", data, nil, "a.zip", "-0", "data")
	run("small", small, nil, "a.zip", "small")
	run("empty", nil, nil, "a.zip", "empty")
	run("commented", small, []byte("a comment\n"), "a.zip", "-z", "small")
	run("descriptor deflated", data, nil, "-", "data")
	run("descriptor stored", data, nil, "-0", "-", "data")
	run("zip64 from a pipe", data, data)
	run("two entries", small, nil, "a.zip", "small", "data")
	for _, c := range cases {
		compareGzip(t, gz, dir, c.name, c.z, c.want, true)
		var g bytes.Buffer
		w := gzip.NewWriter(&g)
		w.Write([]byte("after"))
		w.Close()
		compareGzip(t, gz, dir, c.name+" then a gzip member", append(append([]byte(nil), c.z...), g.Bytes()...), c.want, true)
		for _, cut := range []int{2, 3, 4, 20, 29, 30, 40, len(c.z) / 3, len(c.z) / 2, len(c.z) - 1} {
			if cut < len(c.z) {
				compareGzip(t, gz, dir, c.name+" cut", c.z[:cut], c.want, true)
			}
		}
		for _, at := range []int{6, 8, 14, 18, 22, len(c.z) / 3, len(c.z) / 2} {
			if at < len(c.z) {
				b := append([]byte(nil), c.z...)
				b[at] ^= 0x41
				compareGzip(t, gz, dir, c.name+" flipped", b, c.want, false)
			}
		}
	}
}
