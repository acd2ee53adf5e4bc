package pcptz

import (
	"os"
	"slices"
	"testing"
	"time"
)

// FuzzTZif reads fuzzed bytes as a TZif file (posixrules, whose rules
// are moved onto an archive's zone). What it accepts must hold only
// transitions whose types exist; written back and read again it gives
// the same transitions, types and footer, in a file Go's own TZif reader
// takes; what it keeps is no larger than the input.
func FuzzTZif(f *testing.F) {
	for _, p := range []string{zoneDir + "posixrules", zoneDir + "UTC", zoneDir + "Australia/Melbourne"} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add(writeTZif([]int64{0, 1 << 40}, []byte{0, 1}, []zoneType{{off: 36000, abbr: "EST"}, {off: 39600, isdst: true, abbr: "EDT"}}, "EST-10EDT"))
	f.Fuzz(func(t *testing.T, b []byte) {
		z, ok := readTZif(b)
		if !ok {
			return
		}
		if len(z.when) != len(z.idx) {
			t.Fatalf("%d transitions, %d indexes", len(z.when), len(z.idx))
		}
		size := 8*len(z.when) + len(z.idx) + len(z.isstd) + len(z.isut) + len(z.footer)
		for _, ti := range z.idx {
			if int(ti) >= len(z.types) {
				t.Fatalf("transition to type %d of %d", ti, len(z.types))
			}
		}
		for _, ty := range z.types {
			size += 6 + len(ty.abbr)
		}
		if size > len(b)+len(b)*len(z.types) {
			t.Fatalf("%d bytes kept from %d", size, len(b))
		}
		if len(z.types) == 0 || len(z.types) > 255 || !allAbbrsValid(z.types) {
			return // writeTZif is given a few types with short names
		}
		w := writeTZif(z.when, z.idx, z.types, z.footer)
		z2, ok := readTZif(w)
		if !ok {
			t.Fatalf("written back, not read")
		}
		if !slices.Equal(z.when, z2.when) || !slices.Equal(z.idx, z2.idx) || z.footer != z2.footer ||
			!slices.EqualFunc(z.types, z2.types, func(a, b zoneType) bool {
				return a.off == b.off && a.isdst == b.isdst && a.abbr == b.abbr
			}) {
			t.Fatalf("read back differently:\n%+v\n%+v", z, z2)
		}
		if validFooter(z.footer) && sortedWhen(z.when) {
			if _, err := time.LoadLocationFromTZData("fuzz", w); err != nil {
				t.Fatalf("Go cannot read what was written: %v", err)
			}
		}
	})
}

// validAbbr reports whether an abbreviation survives being written: one
// with a NUL is cut there when read back.
func validAbbr(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			return false
		}
	}
	return true
}

func allAbbrsValid(types []zoneType) bool {
	n := 0
	for _, t := range types {
		if !validAbbr(t.abbr) {
			return false
		}
		n += len(t.abbr) + 1
	}
	return n < 256 // the abbreviation index is a byte
}

func validFooter(s string) bool { return validAbbr(s) }

func sortedWhen(w []int64) bool { return slices.IsSorted(w) }
