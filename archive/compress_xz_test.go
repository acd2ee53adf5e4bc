package archive

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestXZBlocks decodes what the real xz writes, with each check type,
// one block and several: the content must be xz -dc's, and a damaged
// block a hole of exactly its size with the others intact.
func TestXZBlocks(t *testing.T) {
	xzProg, err := exec.LookPath("xz")
	if err != nil {
		t.Skip("xz is not installed")
	}
	data := bytes.Repeat([]byte("kernel.percpu.cpu.user 653860 547160\n"), 6000)
	for i := range data {
		if i%97 == 0 {
			data[i] = byte(i >> 3)
		}
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"crc64", nil},
		{"crc32", []string{"-C", "crc32"}},
		{"sha256", []string{"-C", "sha256"}},
		{"none", []string{"-C", "none"}},
		{"blocks", []string{"--block-size=65536"}},
		{"x86 filter", []string{"--x86", "--lzma2", "--block-size=65536"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(xzProg, append([]string{"-c"}, tc.args...)...)
			cmd.Stdin = bytes.NewReader(data)
			z, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			f := filepath.Join(dir, tc.name+".xz")
			got, holes := decodeXZFile(t, f, z)
			if len(holes) != 0 || !bytes.Equal(got, data) {
				t.Fatalf("%d bytes, holes %v; want %d bytes", len(got), holes, len(data))
			}
			x, err := xzIndex(bytes.NewReader(z), int64(len(z)))
			if err != nil || len(x.blocks) < 2 {
				return
			}
			// damage the second block's compressed data
			b := x.blocks[1]
			z[b.at+b.unpadded/2] ^= 0x55
			got, holes = decodeXZFile(t, f, z)
			want := []span{{x.blocks[0].end, b.end}}
			if len(holes) != 1 || holes[0] != want[0] || len(got) != len(data) ||
				!bytes.Equal(got[:want[0].off], data[:want[0].off]) || !bytes.Equal(got[want[0].end:], data[want[0].end:]) {
				t.Fatalf("holes %v, want %v; %d bytes", holes, want, len(got))
			}
		})
	}
}

func decodeXZFile(t *testing.T, name string, z []byte) ([]byte, []span) {
	t.Helper()
	if err := os.WriteFile(name, z, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out bytes.Buffer
	_, holes, err := decompressTo(&out, f, ".xz")
	if err != nil {
		t.Fatal(err)
	}
	return out.Bytes(), holes
}
