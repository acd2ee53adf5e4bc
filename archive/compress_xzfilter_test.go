package archive

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// filterInput is content on which every branch converter finds work:
// machine code (this test's own executable) and bytes drawn mostly from
// the opcodes each filter looks for, so conversions happen at every
// alignment and across block and chunk boundaries.
func filterInput(t testing.TB, size int) []byte {
	rng := rand.New(rand.NewSource(7))
	var b []byte
	if exe, err := os.Executable(); err == nil {
		if code, err := os.ReadFile(exe); err == nil {
			b = append(b, code[:min(len(code), size/2)]...)
		}
	}
	ops := []byte{0x00, 0xff, 0xe8, 0xe9, 0xeb, 0x40, 0x7f, 0x48, 0x49, 0x4b, 0x94, 0x97, 0x90, 0xb0, 0xf0, 0xf7, 0xf8, 0xff, 0x10, 0x15, 0x25}
	for len(b) < size {
		if rng.Intn(4) == 0 {
			b = append(b, byte(rng.Intn(256)))
		} else {
			b = append(b, ops[rng.Intn(len(ops))])
		}
	}
	return b
}

// xzFilterCases are xz's filter options (xz 5.4), alone and chained.
var xzFilterCases = []struct {
	name string
	args []string
}{
	{"x86", []string{"--x86", "--lzma2=preset=1"}},
	{"x86 start", []string{"--x86=start=12345", "--lzma2=preset=1"}},
	{"powerpc", []string{"--powerpc", "--lzma2=preset=1"}},
	{"ia64", []string{"--ia64", "--lzma2=preset=1"}},
	{"arm", []string{"--arm", "--lzma2=preset=1"}},
	{"armthumb", []string{"--armthumb", "--lzma2=preset=1"}},
	{"arm64", []string{"--arm64", "--lzma2=preset=1"}},
	{"arm64 start", []string{"--arm64=start=4096", "--lzma2=preset=1"}},
	{"sparc", []string{"--sparc", "--lzma2=preset=1"}},
	{"delta", []string{"--delta=dist=1", "--lzma2=preset=1"}},
	{"delta 4", []string{"--delta=dist=4", "--lzma2=preset=1"}},
	{"delta 256", []string{"--delta=dist=256", "--lzma2=preset=1"}},
	{"delta then x86", []string{"--delta=dist=2", "--x86", "--lzma2=preset=1"}},
	{"three", []string{"--arm", "--delta=dist=7", "--powerpc", "--lzma2=preset=1"}},
}

// TestXZFiltersAgainstXZ compresses with each filter xz 5.4 writes, in
// blocks and not, and checks the decoded content is xz -dc's; then a
// damaged block is a hole of its size, the blocks around it intact.
func TestXZFiltersAgainstXZ(t *testing.T) {
	xzProg, err := exec.LookPath("xz")
	if err != nil {
		t.Skip("xz is not installed")
	}
	// Under -race, less content in the same 65531-byte blocks: three of
	// them still, so that the damaged one has blocks on both sides.
	size := 300000
	if raceEnabled {
		size = 140000
	}
	data := filterInput(t, size)
	for _, tc := range xzFilterCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each compresses and decodes on its own
			dir := t.TempDir()
			for _, blocks := range [][]string{nil, {"--block-size=65531"}} {
				name := tc.name + fmt.Sprint(blocks)
				cmd := exec.Command(xzProg, append(append([]string{"-c"}, blocks...), tc.args...)...)
				cmd.Stdin = bytes.NewReader(data)
				z, err := cmd.Output()
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				f := filepath.Join(dir, "f.xz")
				if err := os.WriteFile(f, z, 0o644); err != nil {
					t.Fatal(err)
				}
				want, err := exec.Command(xzProg, "-dc", f).Output()
				if err != nil || !bytes.Equal(want, data) {
					t.Fatalf("%s: xz -dc: %v", name, err)
				}
				got, holes := decodeXZFile(t, f, z)
				if len(holes) != 0 || !bytes.Equal(got, want) {
					t.Errorf("%s: %d bytes, holes %v; xz -dc %d bytes (first difference at %d)", name, len(got), holes, len(want), firstDifference(got, want))
					continue
				}
				x, err := xzIndex(bytes.NewReader(z), int64(len(z)))
				if err != nil {
					t.Fatalf("%s: index: %v", name, err)
				}
				if len(x.blocks) < 3 {
					if blocks != nil {
						t.Fatalf("%s: %d blocks, want 3 or more for the damage", name, len(x.blocks))
					}
					continue
				}
				b := x.blocks[1]
				z[b.at+b.unpadded/2] ^= 0x55
				got, holes = decodeXZFile(t, f, z)
				hole := span{x.blocks[0].end, b.end}
				if len(holes) != 1 || holes[0] != hole || len(got) != len(data) ||
					!bytes.Equal(got[:hole.off], data[:hole.off]) || !bytes.Equal(got[hole.end:], data[hole.end:]) {
					t.Errorf("%s damaged: holes %v, want %v; %d bytes", name, holes, hole, len(got))
				}
			}
		})
	}
}

func firstDifference(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestXZFilterPieces checks the streaming form of each filter (used for
// blocks too large to hold) against the whole-block one, the content
// given in pieces of every small size and some large ones.
func TestXZFilterPieces(t *testing.T) {
	data := filterInput(t, 70000)
	for _, c := range []xzChain{
		{{id: xzFilterX86}}, {{id: xzFilterX86, start: 77}}, {{id: xzFilterPowerPC}}, {{id: xzFilterIA64, start: 32}},
		{{id: xzFilterARM}}, {{id: xzFilterARMThumb}}, {{id: xzFilterSPARC}}, {{id: xzFilterARM64}},
		{{id: xzFilterDelta, dist: 3}, {id: xzFilterX86}}, {{id: xzFilterIA64}, {id: xzFilterDelta, dist: 256}},
	} {
		want := append([]byte(nil), data...)
		c.undo(want)
		for _, piece := range []int{1, 2, 3, 4, 5, 7, 15, 16, 17, 4093, 65536} {
			var out bytes.Buffer
			w := c.writer(&out)
			in := append([]byte(nil), data...)
			for len(in) > 0 {
				k := min(piece, len(in))
				if n, err := w.Write(in[:k]); n != k || err != nil {
					t.Fatal(n, err)
				}
				in = in[k:]
			}
			if err := w.flush(); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out.Bytes(), want) {
				t.Errorf("chain %v in pieces of %d: differs at %d", c, piece, firstDifference(out.Bytes(), want))
			}
		}
	}
}

// TestXZFilterLargeBlock decodes a filtered block too large to hold
// whole (xzMaxWholeBlock), which streams through the filters' writers:
// its content must be xz -dc's, the held-back tail included.
func TestXZFilterLargeBlock(t *testing.T) {
	xzProg, err := exec.LookPath("xz")
	if err != nil {
		t.Skip("xz is not installed")
	}
	if testing.Short() {
		t.Skip("17 MiB of content")
	}
	piece := filterInput(t, 1<<16)
	data := bytes.Repeat(piece, xzMaxWholeBlock/len(piece)+3)
	data = append(data, 0xe8, 0, 0) // an x86 call cut short by the end
	cmd := exec.Command(xzProg, "-c", "-1", "--delta=dist=3", "--x86", "--lzma2=preset=1")
	cmd.Stdin = bytes.NewReader(data)
	z, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(t.TempDir(), "large.xz")
	got, holes := decodeXZFile(t, f, z)
	want, err := exec.Command(xzProg, "-dc", f).Output()
	if err != nil || !bytes.Equal(want, data) {
		t.Fatalf("xz -dc: %v", err)
	}
	if len(holes) != 0 || !bytes.Equal(got, want) {
		t.Fatalf("%d bytes, holes %v; xz -dc %d bytes (first difference at %d)", len(got), holes, len(want), firstDifference(got, want))
	}
}

// TestXZFiltersInLZMAFile reads .xz content under the .lzma suffix, for
// which libpcp runs xz -dc: filtered blocks read, and a damaged block,
// a cut or trailing bytes fail the whole file as they fail xz; several
// streams and stream padding, which xz also reads, read too.
func TestXZFiltersInLZMAFile(t *testing.T) {
	xzProg, err := exec.LookPath("xz")
	if err != nil {
		t.Skip("xz is not installed")
	}
	data := filterInput(t, 200000)
	cmd := exec.Command(xzProg, "-c", "--block-size=65536", "--x86", "--delta=dist=2", "--lzma2")
	cmd.Stdin = bytes.NewReader(data)
	z, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	cmd = exec.Command(xzProg, "-c", "--check=crc32")
	cmd.Stdin = bytes.NewReader(data[:5000])
	plain, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(t.TempDir(), "f.lzma")
	cat := func(bs ...[]byte) []byte { return bytes.Join(bs, nil) }
	for _, tc := range []struct {
		name string
		b    []byte
	}{
		{"whole", z},
		{"damaged block", func() []byte { b := append([]byte(nil), z...); b[len(b)/2] ^= 0x55; return b }()},
		{"cut", z[:len(z)-10]},
		{"trailing bytes", append(append([]byte(nil), z...), "junk"...)},
		{"padding", append(append([]byte(nil), plain...), 0, 0, 0, 0)},
		{"two streams", append(append([]byte(nil), plain...), plain...)},
		{"filtered with padding", cat(z, make([]byte, 8))},
		{"filtered, padded, plain", cat(z, make([]byte, 4), plain)},
		{"plain then filtered", cat(plain, z)},
		{"filtered twice, a block damaged", cat(z, func() []byte { b := append([]byte(nil), z...); b[len(b)/2] ^= 0x55; return b }())},
		{"padding of 3", cat(z, make([]byte, 3))},
		{"padding first", cat(make([]byte, 4), z)},
		{"only padding", make([]byte, 8)},
	} {
		if err := os.WriteFile(f, tc.b, 0o644); err != nil {
			t.Fatal(err)
		}
		want, xzErr := exec.Command(xzProg, "-dc", f).Output()
		src, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		_, _, err = decompressTo(&got, src, ".lzma")
		src.Close()
		if (err != nil) != (xzErr != nil) || err == nil && !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s: %d bytes, %v; xz -dc %d bytes, %v", tc.name, got.Len(), err, len(want), xzErr)
		}
	}
}
