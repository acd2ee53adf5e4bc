package archive

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestLZMA2AgainstXZ decodes every .xz file of PCP's QA archives with
// the block decoder (decodeLZMA2 under copyBlock, the check verified)
// and compares the content with what xz -dc writes.
func TestLZMA2AgainstXZ(t *testing.T) {
	xzProg, err := exec.LookPath("xz")
	if err != nil {
		t.Skip("xz is not installed")
	}
	files, _ := filepath.Glob("/var/lib/pcp/testsuite/archives/*.xz")
	more, _ := filepath.Glob("/var/lib/pcp/testsuite/archives/*/*.xz")
	files = append(files, more...)
	if len(files) == 0 {
		t.Skip("no QA archives")
	}
	n := 0
	for _, name := range files {
		st, err := os.Stat(name)
		limit := int64(512 << 10) // the largest take long under -race
		if raceEnabled {
			limit = 128 << 10 // 58 of the 63 files, half the bytes
		}
		if err != nil || st.Size() > limit {
			continue
		}
		want, err := exec.Command(xzProg, "-dc", name).Output()
		if err != nil {
			continue // not an xz file xz reads
		}
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		x, err := readXZIndex(f)
		if err != nil || !x.blockwise() {
			f.Close()
			continue
		}
		var got bytes.Buffer
		if _, holes, err := x.decodeBlocks(&got, f); err != nil || len(holes) > 0 {
			t.Errorf("%s: %v, holes %v", name, err, holes)
		} else if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s: content differs from xz -dc's", name)
		}
		f.Close()
		n++
	}
	t.Logf("%d files", n)
}

// TestLZMA2Damage flips each byte of a real block's compressed data in
// turn: the block must be refused (errXZBlock), or read as the original;
// data cut short must not decode.
func TestLZMA2Damage(t *testing.T) {
	xzProg, err := exec.LookPath("xz")
	if err != nil {
		t.Skip("xz is not installed")
	}
	// Every byte of the compressed data is flipped in turn, each a decode
	// of the whole block: under -race a block a sixth the size (the same
	// content repeated less) keeps the test to seconds.
	reps := 3000
	if raceEnabled {
		reps = 500
	}
	data := bytes.Repeat([]byte("kernel.all.cpu.user 653860 547160 sample.long.hundred\n"), reps)
	for i := range data {
		if i%89 == 0 {
			data[i] = byte(i >> 4)
		}
	}
	cmd := exec.Command(xzProg, "-c")
	cmd.Stdin = bytes.NewReader(data)
	z, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	x, err := xzIndex(bytes.NewReader(z), int64(len(z)))
	if err != nil {
		t.Fatal(err)
	}
	b := x.blocks[0]
	hsize := (int64(z[b.at]) + 1) * 4
	comp := z[b.at+hsize : b.at+b.unpadded-8]
	dst := make([]byte, b.size)
	if err := decodeLZMA2(dst, comp, 1<<23); err != nil || !bytes.Equal(dst, data) {
		t.Fatalf("undamaged: %v", err)
	}
	// Damage anywhere in the compressed data: the block either does not
	// decode or fails its check; it never reads as other content.
	for i := b.at + hsize; i < b.at+b.unpadded-8; i++ {
		zc := bytes.Clone(z)
		zc[i] ^= 0x41
		var out bytes.Buffer
		_, err := x.copyBlock(&out, bytes.NewReader(zc), b, false)
		if err == nil && !bytes.Equal(out.Bytes(), data) {
			t.Fatalf("byte %d flipped: decoded to other content", i)
		}
		if err != nil && !errors.Is(err, errXZBlock) {
			t.Fatalf("byte %d flipped: %v", i, err)
		}
	}
	for _, cut := range []int{0, 1, 5, len(comp) / 2, len(comp) - 1} {
		if decodeLZMA2(dst, comp[:cut], 1<<23) == nil {
			t.Errorf("data cut at %d of %d decoded", cut, len(comp))
		}
	}
}

// FuzzLZMA2 decodes anything into a bounded buffer: it must return, not
// panic, and write only within the buffer.
func FuzzLZMA2(f *testing.F) {
	f.Add([]byte{0x01, 0x00, 0x02, 'a', 'b', 'c', 0x00}, uint16(3))
	f.Add([]byte{0xE0, 0x00, 0x05, 0x00, 0x06, 0x5D, 0x00, 0x30, 0x98, 0x88, 0x00, 0x00}, uint16(6))
	f.Add([]byte{0x00}, uint16(0))
	f.Fuzz(func(t *testing.T, src []byte, size uint16) {
		dst := make([]byte, int(size)%4096)
		decodeLZMA2(dst, src, 1<<16)
	})
}

// TestLZMA2Window decodes content several times the window's chunk
// through decodeLZMA2Window, with a dictionary small enough that the
// window slides often, and with one larger than the content: both must
// give xz -dc's content, and a wrong size must fail.
func TestLZMA2Window(t *testing.T) {
	xzProg, err := exec.LookPath("xz")
	if err != nil {
		t.Skip("xz is not installed")
	}
	data := make([]byte, 2*lzma2Chunk+12345)
	seed := uint32(7)
	for i := range data {
		seed = seed*1103515245 + 12345
		if seed>>28 == 0 {
			data[i] = byte(seed >> 16)
		} else if i > 300 {
			data[i] = data[i-int(seed>>20&0xff)-1]
		}
	}
	// Four decodes of several megabytes, independent of each other: run
	// side by side.
	for _, dict := range []string{"4KiB", "8MiB"} {
		cmd := exec.Command(xzProg, "-c", "--format=raw", "--lzma2=preset=0,dict="+dict)
		cmd.Stdin = bytes.NewReader(data)
		z, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		size := int64(4096)
		if dict == "8MiB" {
			size = 8 << 20
		}
		t.Run(dict, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			if err := decodeLZMA2Window(&out, z, int64(len(data)), size); err != nil {
				t.Fatalf("dict %s: %v", dict, err)
			}
			if !bytes.Equal(out.Bytes(), data) {
				t.Fatalf("dict %s: content differs", dict)
			}
		})
		if dict != "4KiB" {
			continue
		}
		for _, n := range []int64{int64(len(data)) - 1, int64(len(data)) + 1} {
			t.Run(fmt.Sprintf("%s size %d", dict, n), func(t *testing.T) {
				t.Parallel()
				if decodeLZMA2Window(io.Discard, z, n, size) == nil {
					t.Errorf("dict %s: decoded as %d bytes of %d", dict, n, len(data))
				}
			})
		}
	}
}
