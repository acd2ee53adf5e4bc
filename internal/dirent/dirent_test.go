package dirent

import (
	"bytes"
	"encoding/binary"
	"slices"
	"testing"
)

// record builds one linux_dirent64 record as the kernel pads it.
func record(name string, typ byte) []byte {
	n := (headerLen + len(name) + 1 + 7) &^ 7
	b := make([]byte, n)
	binary.NativeEndian.PutUint16(b[16:], uint16(n))
	b[18] = typ
	copy(b[headerLen:], name)
	return b
}

func TestNext(t *testing.T) {
	whole := slices.Concat(record(".", 4), record("..", 4), record("cpu.stat", 8))
	cases := []struct {
		name  string
		b     []byte
		names []string
		types []byte
	}{
		{"three records", whole, []string{".", "..", "cpu.stat"}, []byte{4, 4, 8}},
		{"empty", nil, nil, nil},
		{"cut in the header", whole[:10], nil, nil},
		{"cut in the last record", whole[:len(whole)-1], []string{".", ".."}, []byte{4, 4}},
		{"length below the header", func() []byte {
			b := record("x", 8)
			binary.NativeEndian.PutUint16(b[16:], 3)
			return b
		}(), nil, nil},
		{"name without its NUL", func() []byte {
			b := make([]byte, headerLen+3)
			binary.NativeEndian.PutUint16(b[16:], uint16(len(b)))
			copy(b[headerLen:], "abc")
			return b
		}(), []string{"abc"}, []byte{0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var names []string
			var types []byte
			for b := c.b; ; {
				name, typ, rest, ok := Next(b)
				if !ok {
					break
				}
				names, types, b = append(names, string(name)), append(types, typ), rest
			}
			if !slices.Equal(names, c.names) || !bytes.Equal(types, c.types) {
				t.Errorf("got %q %v, want %q %v", names, types, c.names, c.types)
			}
		})
	}
}

func FuzzNext(f *testing.F) {
	f.Add(slices.Concat(record(".", 4), record("system.slice", 4)))
	f.Add(record("cpu.stat", 8)[:20])
	f.Fuzz(func(t *testing.T, b []byte) {
		n := 0
		for rest := b; ; n++ {
			name, _, r, ok := Next(rest)
			if !ok {
				break
			}
			if bytes.IndexByte(name, 0) >= 0 {
				t.Fatalf("name %q has a NUL", name)
			}
			if len(r) >= len(rest) {
				t.Fatalf("no progress: %d bytes left of %d", len(r), len(rest))
			}
			rest = r
		}
		if n > len(b)/headerLen {
			t.Fatalf("%d records from %d bytes", n, len(b))
		}
	})
}
