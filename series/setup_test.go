package series

import (
	"strings"
	"testing"
)

// TestCNumbers: strtoul and atoi as glibc's read the version texts (the
// wanted values printed by a C program calling glibc's strtoul(s, &end,
// 10) cast to unsigned int, end's offset, and atoi cast likewise).
func TestCNumbers(t *testing.T) {
	for _, c := range []struct {
		s    string
		ul   uint32
		end  int
		atoi uint32
	}{
		{"5.0", 5, 1, 5},
		{" 6.2", 6, 2, 6},
		{"-4.0", 4294967292, 2, 4294967292},
		{"+7.", 7, 2, 7},
		{"abc", 0, 0, 0},
		{"", 0, 0, 0},
		{".5", 0, 0, 0},
		{"99999999999999999999.1", 4294967295, 20, 4294967295},
		{"4294967297.0", 1, 10, 1},
		{"-1", 4294967295, 2, 4294967295},
		{"3x", 3, 1, 3},
		{" 2", 2, 2, 2},
		{"-99999999999999999999", 4294967295, 21, 0},
		{"0012", 12, 4, 12},
	} {
		ul, rest := strtoul(c.s)
		if ul != c.ul || len(c.s)-len(rest) != c.end {
			t.Errorf("strtoul(%q) = %d, end %d; glibc's %d, %d", c.s, ul, len(c.s)-len(rest), c.ul, c.end)
		}
		if a := atoiUnsigned(c.s); a != c.atoi {
			t.Errorf("atoi(%q) = %d; glibc's %d", c.s, a, c.atoi)
		}
	}
}

// FuzzServerVersion: any INFO text is checked without a panic, and a
// complaint is one of libpcp_web's two.
func FuzzServerVersion(f *testing.F) {
	for _, s := range []string{"# Server\r\nredis_version:7.0.15\r\n", "redis_version:4.0\n", "a\n\nredis_version:x", "redis_version:", "\x00redis_version:1."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if n := serverVersion(s); n != nil && n.Msg != "redis server version parse error" && !strings.HasPrefix(n.Msg, "unsupported redis server (got v") {
			t.Errorf("serverVersion(%q) = %v", s, n)
		}
		strtoul(s)
		atoiUnsigned(s)
	})
}
