package jbd2

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParseInfo feeds info texts to the parser, starting from the
// fixtures: it must not panic, must stop, and may only make a journal
// of a text with a header it recognised.
func FuzzParseInfo(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*", "*", "info"))
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("1 transactions (2 requested), each up to 3 blocks\naverage: \n 4ms request delay\n"))
	f.Fuzz(func(t *testing.T, text []byte) {
		var j journal
		ok := parseInfo(&j, text)
		if ok && j.version != 2 && j.version != 3 {
			t.Fatalf("a journal of version %d", j.version)
		}
		again := j
		if parseInfo(&again, text) != ok || again != j {
			t.Fatalf("a second parse differs: %+v, then %+v", j, again)
		}
	})
}
