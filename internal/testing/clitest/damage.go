package clitest

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Damage is one way of spoiling a copy of an archive: a file of it cut
// short, a byte of one record changed (its length word, or anywhere in
// a metadata record), or a 32-bit word of a temporal index entry (its
// volume number, an offset, its time) rewritten.
type Damage struct {
	Suffix string // the file: ".0", ".1", ".meta", ".index"
	Kind   string // "truncate", "length" or "byte" (xor), "word" (set)
	Off    int64  // where the file is cut, or the byte or word changed
	Xor    byte   // what the byte is xored with
	Word   uint32 // what the word becomes, big-endian
	What   string // for a word, the field: "vol", "data", "meta", "time"
}

func (d Damage) String() string {
	switch d.Kind {
	case "truncate":
		return fmt.Sprintf("%s cut at %d", d.Suffix, d.Off)
	case "word":
		return fmt.Sprintf("%s %s word %d = %#x", d.Suffix, d.What, d.Off, d.Word)
	}
	return fmt.Sprintf("%s byte %d ^ %#02x", d.Suffix, d.Off, d.Xor)
}

// apply spoils b, the content of the file d names.
func (d Damage) apply(b []byte) []byte {
	switch d.Kind {
	case "truncate":
		return b[:min(int64(len(b)), d.Off)]
	case "length", "byte":
		if d.Off < int64(len(b)) {
			b[d.Off] ^= d.Xor
		}
	case "word":
		if d.Off+4 <= int64(len(b)) {
			binary.BigEndian.PutUint32(b[d.Off:], d.Word)
		}
	}
	return b
}

// CopyDamaged copies the uncompressed archive src (a base name) into dir
// as base name "d", applies dmg, and returns the copy's base name.
func CopyDamaged(t testing.TB, src, dir string, dmg Damage) string {
	t.Helper()
	files, err := filepath.Glob(src + ".*")
	if err != nil || len(files) == 0 {
		t.Fatalf("archive %s: no files", src)
	}
	base := filepath.Join(dir, "d")
	for _, f := range files {
		suffix := strings.TrimPrefix(f, src)
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if suffix == dmg.Suffix {
			b = dmg.apply(b)
		}
		if err := os.WriteFile(base+suffix, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return base
}

// records are the offsets of the records of a data volume or metadata
// file: each starts with its length, the label first.
func records(b []byte) []int64 {
	var out []int64
	for off := 0; off+4 <= len(b); {
		n := int(binary.BigEndian.Uint32(b[off:]))
		if n < 8 || off+n > len(b) {
			break
		}
		out = append(out, int64(off))
		off += n
	}
	return out
}

// RandomDamage picks a damage for archive src: a data volume cut after
// its label, the metadata or index cut anywhere, a byte of a data
// record's header or trailer length changed, a temporal index entry's
// volume number, data or metadata offset or time rewritten
// (IndexDamage), or a byte of a metadata record changed (MetaDamage).
func RandomDamage(t testing.TB, rng *rand.Rand, src string) Damage {
	t.Helper()
	vols, _ := filepath.Glob(src + ".[0-9]*")
	vol := strings.TrimPrefix(vols[rng.IntN(len(vols))], src)
	size := func(suffix string) int64 {
		st, err := os.Stat(src + suffix)
		if err != nil {
			t.Fatal(err)
		}
		return st.Size()
	}
	switch k := rng.IntN(16); {
	case k >= 12:
		if d, ok := IndexDamage(t, rng, src); ok {
			return d
		}
		return MetaDamage(t, rng, src)
	case k >= 10:
		return MetaDamage(t, rng, src)
	case k < 4:
		b, err := os.ReadFile(src + vol)
		if err != nil {
			t.Fatal(err)
		}
		label := int64(binary.BigEndian.Uint32(b))
		return Damage{Suffix: vol, Kind: "truncate", Off: label + rng.Int64N(max(1, int64(len(b))-label))}
	case k < 5:
		return Damage{Suffix: ".meta", Kind: "truncate", Off: rng.Int64N(size(".meta"))}
	case k < 6:
		return Damage{Suffix: ".index", Kind: "truncate", Off: rng.Int64N(size(".index"))}
	default:
		b, err := os.ReadFile(src + vol)
		if err != nil {
			t.Fatal(err)
		}
		recs := records(b)
		if len(recs) < 2 {
			return Damage{Suffix: vol, Kind: "truncate", Off: int64(len(b)) - 1}
		}
		i := 1 + rng.IntN(len(recs)-1) // not the label
		off := recs[i]
		if rng.IntN(2) == 1 { // the trailer
			off += int64(binary.BigEndian.Uint32(b[off:])) - 4
		}
		return Damage{Suffix: vol, Kind: "length", Off: off + int64(rng.IntN(4)), Xor: byte(1 + rng.IntN(255))}
	}
}
