package archive

import (
	"bufio"
	"bytes"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// lzwInputs are contents that drive the decoder through every width, the
// table filling up, and compress's clears (data whose ratio falls after
// the table is full).
func lzwInputs() map[string][]byte {
	rng := rand.New(rand.NewSource(1))
	text := make([]byte, 0, 1<<18+16)
	words := []string{"kernel", "percpu", "cpu", "user", "sys", "idle", "disk", "dev", "read", "write", "\n", " ", "0", "1", "42"}
	for len(text) < 1<<18 {
		text = append(text, words[rng.Intn(len(words))]...)
	}
	noise := make([]byte, 1<<18)
	rng.Read(noise)
	mixed := append(append(append([]byte{}, text[:100000]...), noise[:150000]...), text[100000:]...)
	return map[string][]byte{
		"empty": nil,
		"one":   []byte("x"),
		"kwkwk": bytes.Repeat([]byte("a"), 5000),
		"text":  text,
		"noise": noise,
		"mixed": mixed,
	}
}

func decodeLZW(t testing.TB, z []byte) ([]byte, error) {
	r, err := newLZWReader(bufio.NewReader(bytes.NewReader(z)))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(r)
}

// TestLZWAgainstCompress decodes what the real compress(1) writes, at
// every code width limit, and checks truncated streams against gzip -dc,
// the program libpcp uses: the same bytes, and an error where gzip fails.
func TestLZWAgainstCompress(t *testing.T) {
	compress, err := exec.LookPath("compress")
	if err != nil {
		t.Skip("compress(1) is not installed (Debian package ncompress)")
	}
	gzip, gzErr := exec.LookPath("gzip")
	dir := t.TempDir()
	for name, data := range lzwInputs() {
		// -C: compress 2.0's output, without block mode (no clears)
		for _, bits := range []string{"9", "12", "16", "16 -C"} {
			if testing.Short() && bits != "16" {
				continue
			}
			cmd := exec.Command(compress, append([]string{"-c", "-b"}, strings.Fields(bits)...)...)
			cmd.Stdin = bytes.NewReader(data)
			z, err := cmd.Output()
			if err != nil && len(z) == 0 {
				t.Fatalf("%s -b%s: %v", name, bits, err)
			}
			got, err := decodeLZW(t, z)
			// gzip, and so libpcp, reads neither -b9 nor -C output (it
			// widens codes past 9 bits, and fails without block mode);
			// those are compared with gzip -dc below
			if bits != "9" && bits != "16 -C" && (err != nil || !bytes.Equal(got, data)) {
				t.Errorf("%s -b%s: %d bytes, %v; want %d bytes", name, bits, len(got), err, len(data))
			}
			if gzErr != nil {
				continue
			}
			for _, cut := range []int{len(z), 3, len(z) / 3, len(z) - 1} {
				if cut > len(z) {
					continue
				}
				f := filepath.Join(dir, name+".Z")
				if err := os.WriteFile(f, z[:cut], 0o644); err != nil {
					t.Fatal(err)
				}
				want, gerr := exec.Command(gzip, "-dc", f).Output()
				got, err := decodeLZW(t, z[:cut])
				if (gerr != nil) != (err != nil) || (err == nil && !bytes.Equal(got, want)) {
					t.Errorf("%s -b%s cut at %d: %d bytes, %v; gzip -dc %d bytes, %v", name, bits, cut, len(got), err, len(want), gerr)
				}
			}
		}
	}
}

// TestLZWHeaders checks headers compress does not write against gzip -dc:
// reserved flags and more than 16 bits fail, as gzip fails.
func TestLZWHeaders(t *testing.T) {
	gzip, err := exec.LookPath("gzip")
	if err != nil {
		t.Skip("gzip is not installed")
	}
	dir := t.TempDir()
	for _, hdr := range [][]byte{{0x1f, 0x9d, 0xf0}, {0x1f, 0x9d, 0x91}, {0x1f, 0x9d, 0x88}, {0x1f, 0x9d, 0x0c}, {0x1f, 0x9d}} {
		z := append(append([]byte{}, hdr...), 'a', 0x02, 0x0c, 0x20, 0x40, 0x80)
		f := filepath.Join(dir, "h.Z")
		if err := os.WriteFile(f, z, 0o644); err != nil {
			t.Fatal(err)
		}
		want, gerr := exec.Command(gzip, "-dc", f).Output()
		got, err := decodeLZW(t, z)
		if (gerr != nil) != (err != nil) || (err == nil && !bytes.Equal(got, want)) {
			t.Errorf("header % x: %q, %v; gzip -dc %q, %v", hdr, got, err, want, gerr)
		}
	}
}
