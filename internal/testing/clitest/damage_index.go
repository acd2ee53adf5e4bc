package clitest

import (
	"encoding/binary"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// indexLayout is where the fields of a temporal index entry lie: PCP's
// version 2 entries are 20 bytes (a timeval, the volume, 32-bit
// offsets), version 3's 32 (a 64-bit second, the volume, 64-bit
// offsets); each offset here is of the field's low 32-bit word.
type indexLayout struct {
	size, sec, vol, meta, data int64
}

var indexLayouts = map[byte]indexLayout{
	2: {size: 20, sec: 0, vol: 8, meta: 12, data: 16},
	3: {size: 32, sec: 4, vol: 12, meta: 20, data: 28},
}

// IndexDamage picks a rewrite of one field of one of src's temporal
// index entries: the volume number (one past the last, far past it,
// negative, or another volume), the data offset (inside the label,
// inside or past the volume, negative), the metadata offset, or the
// time (earlier, later, zero, the largest). ok is false when src has no
// index entries.
func IndexDamage(t testing.TB, rng *rand.Rand, src string) (d Damage, ok bool) {
	t.Helper()
	b, err := os.ReadFile(src + ".index")
	if err != nil || len(b) < 8 {
		return Damage{}, false
	}
	lay, known := indexLayouts[b[7]]
	hdr := int64(binary.BigEndian.Uint32(b))
	if !known || hdr <= 0 || hdr > int64(len(b)) {
		return Damage{}, false
	}
	n := (int64(len(b)) - hdr) / lay.size
	if n == 0 {
		return Damage{}, false
	}
	entry := hdr + rng.Int64N(n)*lay.size
	word := func(at int64) uint32 { return binary.BigEndian.Uint32(b[entry+at:]) }
	vols := volumeNumbers(src)
	last := uint32(vols[len(vols)-1])
	d = Damage{Suffix: ".index", Kind: "word"}
	switch rng.IntN(4) {
	case 0:
		d.What, d.Off = "vol", entry+lay.vol
		d.Word = []uint32{last + 1, last + 7, 0xffffffff, 0x7fffffff, uint32(vols[rng.IntN(len(vols))])}[rng.IntN(5)]
	case 1:
		d.What, d.Off = "data", entry+lay.data
		size := int64(word(lay.data)) + 1
		if st, err := os.Stat(src + "." + strconv.FormatUint(uint64(word(lay.vol)), 10)); err == nil {
			size = st.Size()
		}
		d.Word = []uint32{uint32(rng.Int64N(132)), uint32(rng.Int64N(size + 1)), uint32(size + 1 + rng.Int64N(1<<20)), 0xffffffff, 0x80000000}[rng.IntN(5)]
	case 2:
		d.What, d.Off = "meta", entry+lay.meta
		d.Word = []uint32{0, uint32(rng.Int64N(int64(word(lay.meta)) + 1)), word(lay.meta) + 1 + uint32(rng.IntN(1<<20)), 0xffffffff}[rng.IntN(4)]
	default:
		d.What, d.Off = "time", entry+lay.sec
		sec := word(lay.sec)
		d.Word = []uint32{sec - 1 - uint32(rng.IntN(3600)), sec + 1 + uint32(rng.IntN(3600)), 0, 0x7fffffff}[rng.IntN(4)]
	}
	return d, true
}

// MetaDamage picks a change of one byte of one of src's metadata
// records after the label: its length word, its type, or any byte of
// its body.
func MetaDamage(t testing.TB, rng *rand.Rand, src string) Damage {
	t.Helper()
	b, err := os.ReadFile(src + ".meta")
	if err != nil {
		t.Fatal(err)
	}
	recs := records(b)
	d := Damage{Suffix: ".meta", Kind: "byte", Xor: byte(1 + rng.IntN(255))}
	if len(recs) < 2 {
		d.Kind, d.Off = "truncate", int64(len(b))-1
		return d
	}
	i := 1 + rng.IntN(len(recs)-1)
	end := int64(len(b))
	if i+1 < len(recs) {
		end = recs[i+1]
	}
	switch rng.IntN(3) {
	case 0:
		d.Off = recs[i] + rng.Int64N(4)
	case 1:
		d.Off = recs[i] + 4 + rng.Int64N(4)
	default:
		d.Off = recs[i] + rng.Int64N(end-recs[i])
	}
	return d
}

// volumeNumbers are the numbers of src's data volumes, in order.
func volumeNumbers(src string) []int {
	files, _ := filepath.Glob(src + ".[0-9]*")
	var out []int
	for _, f := range files {
		s := strings.TrimPrefix(f, src+".")
		s, _, _ = strings.Cut(s, ".")
		if n, err := strconv.Atoi(s); err == nil {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return []int{0}
	}
	slices.Sort(out)
	return out
}
