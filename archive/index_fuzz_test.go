package archive

import (
	"bytes"
	"os"
	"testing"
)

// FuzzDecodeIndex reads fuzzed temporal index files of both versions,
// seeded with QA archives' indexes. Every whole entry after the label is
// read and a partial one at the end ignored; each entry comes from its
// own bytes alone (changing a later entry's bytes leaves it be); a
// version 2 entry's offsets are its 32-bit fields without a sign, as
// libpcp loads them (ntohl into an off_t).
func FuzzDecodeIndex(f *testing.F) {
	for _, name := range []string{"20041125.index", "gap.index", "sample-labels.index"} {
		if b, err := os.ReadFile(qaDir + "/" + name); err == nil {
			f.Add(b, false)
		}
	}
	f.Add(bytes.Repeat([]byte{0xff}, 200), true)
	f.Fuzz(func(t *testing.T, b []byte, v3 bool) {
		version, size := Version2, 20
		if v3 {
			version, size = Version3, 32
		}
		entries := decodeIndex(b, version)
		want := 0
		if n := len(b) - labelSize(version); n > 0 {
			want = n / size
		}
		if len(entries) != want {
			t.Fatalf("%d entries from %d bytes, want %d", len(entries), len(b), want)
		}
		if len(entries) < 2 {
			return
		}
		c := bytes.Clone(b)
		for i := labelSize(version) + size; i < len(c); i++ {
			c[i] ^= 0xa5
		}
		if again := decodeIndex(c, version); again[0] != entries[0] {
			t.Fatalf("entry 0 %+v changed to %+v with later bytes", entries[0], again[0])
		}
		if !v3 {
			for _, e := range entries {
				if e.MetaOffset != int64(uint32(e.MetaOffset)) || e.DataOffset != int64(uint32(e.DataOffset)) {
					t.Fatalf("version 2 entry %+v", e)
				}
			}
		}
	})
}
