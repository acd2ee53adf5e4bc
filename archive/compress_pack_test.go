package archive

import (
	"bytes"
	"compress/gzip"
	"math/rand"
	"os/exec"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/packfmt"
)

// TestPackAgainstGzip reads pack(1) members as gzip -dc reads them (no
// Debian package writes pack, so packfmt makes them and the real gzip
// judges):
// alone and followed by others, zeros or garbage, cut short, with a
// byte flipped, and with headers gzip refuses.
func TestPackAgainstGzip(t *testing.T) {
	gz, err := exec.LookPath("gzip")
	if err != nil {
		t.Skip("gzip is not installed")
	}
	dir := t.TempDir()
	rng := rand.New(rand.NewSource(3))
	skewed := make([]byte, 50000)
	for i := range skewed {
		// geometric: codes of many lengths, up to the twenties
		n := 0
		for n < 40 && rng.Intn(3) != 0 {
			n++
		}
		skewed[i] = byte('A' + n)
	}
	all := make([]byte, 512)
	for i := range all {
		all[i] = byte(i)
	}
	inputs := map[string][]byte{
		"text":    bytes.Repeat([]byte("kernel.percpu.cpu.user 653860 547160\n"), 700),
		"binary":  filterInput(t, 60000),
		"skewed":  skewed,
		"one":     {'x'},
		"same":    bytes.Repeat([]byte{0}, 1000),
		"empty":   nil,
		"255":     all[:255],
		"all 256": all, // more leaves than gzip takes
	}
	var g bytes.Buffer
	w := gzip.NewWriter(&g)
	w.Write([]byte("after"))
	w.Close()
	for name, data := range inputs {
		z := packfmt.Encode(data)
		if name == "skewed" && (z[6] <= packPeek || z[6] > packMaxBits) {
			t.Fatalf("skewed: longest code %d bits, want past the %d bits looked at at once", z[6], packPeek)
		}
		compareGzip(t, gz, dir, name, z, data, true)
		compareGzip(t, gz, dir, name+" twice", append(append([]byte(nil), z...), z...), append(append([]byte(nil), data...), data...), true)
		compareGzip(t, gz, dir, name+" then gzip", append(append([]byte(nil), z...), g.Bytes()...), data, true)
		compareGzip(t, gz, dir, name+" then zeros", append(append([]byte(nil), z...), 0, 0, 0), data, true)
		compareGzip(t, gz, dir, name+" then garbage", append(append([]byte(nil), z...), "junk"...), data, true)
		for _, cut := range []int{3, 6, 7, 8, 12, len(z) / 2, len(z) - 2, len(z) - 1} {
			if cut < len(z) {
				compareGzip(t, gz, dir, name+" cut", z[:cut], data, true)
			}
		}
		for _, at := range []int{2, 5, 6, 7, 9, 20, len(z) / 2, len(z) - 1} {
			if at < len(z) {
				b := append([]byte(nil), z...)
				b[at] ^= 0x21
				compareGzip(t, gz, dir, name+" flipped", b, data, false)
			}
		}
	}
	for _, hdr := range [][]byte{
		{0x1f, 0x1e, 0, 0, 0, 1, 0},                             // no code length
		{0x1f, 0x1e, 0, 0, 0, 1, 26},                            // too long
		{0x1f, 0x1e, 0, 0, 0, 1, 1, 1, 'a', 0xff},               // too many leaves
		{0x1f, 0x1e, 0, 0, 0, 1, 2, 0, 0, 'a', 0xff},            // too few
		{0x1f, 0x1e, 0, 0, 0, 1, 2, 1, 0, 'a', 'b', 0x00},       // 'a' then the end code
		{0x1f, 0x1e, 0, 0, 0, 2, 2, 1, 0, 'a', 'b', 0x00},       // a length error
		{0x1f, 0x1e, 0, 0, 0, 1, 2, 1, 0, 'a', 'b', 0xaa, 0x55}, // more codes
	} {
		compareGzip(t, gz, dir, "header", hdr, nil, false)
	}
}
