package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/mmv"
	"github.com/gopcp/gopcp/mmv/mmvfile"
)

// TestSerialAtOffsets: an instance's domain offset comes from the file,
// so one near the top of uint64 must not wrap the bounds check (it
// panicked with a slice out of range).
func TestSerialAtOffsets(t *testing.T) {
	f := &mmvfile.File{
		B:      []byte{0, 0, 0, 0, 7, 0, 0, 0},
		InDoms: []mmvfile.InDom{{Offset: 0, Serial: 3}},
	}
	tests := []struct {
		off  uint64
		want uint32
	}{
		{0, 3},                  // a domain record
		{4, 7},                  // read from the bytes
		{5, 0},                  // fewer than 4 bytes left
		{math.MaxUint64 - 1, 0}, // would wrap off+4
		{math.MaxUint64, 0},
	}
	for _, tt := range tests {
		if got := serialAt(f, tt.off); got != tt.want {
			t.Errorf("serialAt(%d) = %d, want %d", tt.off, got, tt.want)
		}
	}
}

// TestSparseFileRefused: a sparse file of 1 TiB is refused before it is
// read (it was read whole with os.ReadFile before), and one within the
// size cap claiming more records than mmvdump's limits gets one line
// naming the limit.
func TestSparseFileRefused(t *testing.T) {
	dir := t.TempDir()
	huge := filepath.Join(dir, "huge")
	if err := os.WriteFile(huge, []byte(mmv.Magic), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, 1<<40); err != nil {
		t.Skipf("no sparse file here: %v", err)
	}
	if _, err := readFile(huge); !errors.Is(err, mmvfile.ErrTooLarge) {
		t.Errorf("readFile of 1 TiB: %v, want ErrTooLarge", err)
	}
	le := binary.LittleEndian
	b := make([]byte, mmv.HeaderSize)
	copy(b, mmv.Magic)
	le.PutUint32(b[4:], uint32(mmv.Version1))
	le.PutUint64(b[8:], 1)
	le.PutUint64(b[16:], 1)
	le.PutUint32(b[24:], 2)
	for _, e := range [][2]int32{{mmv.TOCMetrics, 0}, {mmv.TOCValues, 1 << 21}} {
		b = le.AppendUint32(b, uint32(e[0]))
		b = le.AppendUint32(b, uint32(e[1]))
		b = le.AppendUint64(b, 72)
	}
	b = append(b, make([]byte, 1<<21*mmv.ValueSize)...) // 64 MiB of zeros
	var out bytes.Buffer
	if st := run(&out, "claims", b); st != 1 || !strings.Contains(out.String(), "section 4 of 2097152 records, more than 1048576") {
		t.Errorf("status %d, output %q", st, out.String())
	}
}
