package main

import (
	"math"
	"testing"

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
