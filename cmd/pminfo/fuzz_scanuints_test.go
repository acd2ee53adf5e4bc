package main

import (
	"strconv"
	"strings"
	"testing"
)

// FuzzScanUints reads fuzzed "domain.cluster.item" and "domain.serial"
// arguments as sscanf's %u reads them, at most three numbers: each
// number is the value of its digits cut to 32 bits (strtoul's, saturated
// past 64 bits), the numbers are the text's leading dot-separated digit
// runs, and no more than asked are read.
func FuzzScanUints(f *testing.F) {
	for _, s := range []string{"60.0.20", "60.1", "1.2.3.4", "29", "29.", "4294967296.1.1", "99999999999999999999999.0.0", "1..2", "12ab.3"} {
		f.Add(s, uint8(3))
	}
	f.Fuzz(func(t *testing.T, s string, maxN uint8) {
		max := int(maxN%4) + 1
		got := scanUints(s, max)
		if len(got) > max {
			t.Fatalf("scanUints(%q, %d) = %v", s, max, got)
		}
		rest := s
		for i, n := range got {
			j := 0
			for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
				j++
			}
			if j == 0 {
				t.Fatalf("scanUints(%q) = %v: number %d has no digits", s, got, i)
			}
			want := uint64(1<<64 - 1)
			if v, err := strconv.ParseUint(rest[:j], 10, 64); err == nil {
				want = v
			}
			if n != uint32(want) {
				t.Fatalf("scanUints(%q) = %v: number %d is not %q cut to 32 bits", s, got, i, rest[:j])
			}
			rest = strings.TrimPrefix(rest[j:], ".")
		}
	})
}
