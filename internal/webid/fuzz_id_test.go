package webid

import (
	"strings"
	"testing"
)

// FuzzParseID reads fuzzed series, source, instance and metric
// identifiers as /series requests and pmseries arguments give them: one
// accepted is 40 hex digits, and printed back it is the same text in
// lower case.
func FuzzParseID(f *testing.F) {
	for _, s := range []string{"605fc77742cd0317597291329561ac4e50c0dd12", "605FC77742CD0317597291329561AC4E50C0DD12",
		"605fc77742cd0317597291329561ac4e50c0dd1", "605fc77742cd0317597291329561ac4e50c0dd1g", "", "0x5fc77742cd0317597291329561ac4e50c0dd12"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, ok := ParseID(s)
		if !ok {
			return
		}
		if got := id.String(); got != strings.ToLower(s) {
			t.Fatalf("ParseID(%q) prints as %q", s, got)
		}
	})
}
