package main

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/gopcp/gopcp/mmv"
	"github.com/gopcp/gopcp/mmv/mmvfile"
)

// TestImageBounds: offsets come from the file, so one near the top of
// uint64 must not wrap a check, and reads past the file see the page's
// zeros up to the end of the mapping and nothing beyond.
func TestImageBounds(t *testing.T) {
	m := image{b: []byte("ab\x00cd"), mapped: 8}
	full := image{b: []byte("abcd"), mapped: 4} // ends on a page boundary
	tests := []struct {
		name string
		got  any
		want any
	}{
		{"fits whole", m.fits(0, 5), true},
		{"fits past end", m.fits(1, 5), false},
		{"fits wrapping", m.fits(math.MaxUint64-1, 4), false},
		{"fits huge count", m.fits(4, math.MaxUint64), false},
		{"u32 into zeros", must(m.u32(4)), uint32('d')},
		{"u32 past mapping", ok(m.u32(6)), false},
		{"u64 wrapping", ok(m.u64(math.MaxUint64 - 2)), false},
		{"cstr", must(m.cstr(0)), "ab"},
		{"cstr ended by zeros", must(m.cstr(3)), "cd"},
		{"cstr in zeros", must(m.cstr(6)), ""},
		{"cstr past mapping", ok(m.cstr(8)), false},
		{"cstr unended", ok(full.cstr(1)), false},
		{"field", m.field(3, 2), "c"},
		{"field past mapping", m.field(7, 256), ""},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, tt.got, tt.want)
		}
	}
}

func must[T any](v T, _ bool) T  { return v }
func ok[T any](_ T, b bool) bool { return b }

// TestSparseFileRefused: a sparse file of 1 TiB is refused before it is
// read (it was read whole with os.ReadFile before).
func TestSparseFileRefused(t *testing.T) {
	huge := filepath.Join(t.TempDir(), "huge")
	if err := os.WriteFile(huge, []byte(mmv.Magic), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, 1<<40); err != nil {
		t.Skipf("no sparse file here: %v", err)
	}
	if _, err := readFile(huge); !errors.Is(err, mmvfile.ErrTooLarge) {
		t.Errorf("readFile of 1 TiB: %v, want ErrTooLarge", err)
	}
}
