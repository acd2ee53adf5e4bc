package pcpconf

import (
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func none(string) (string, bool) { return "", false }

// addSeeds gives a pcp.conf fuzzer its first texts: the installed file,
// quoting, a variable set twice, a line longer than libpcp reads at
// once, and lines that set nothing.
func addSeeds(f *testing.F) {
	for _, p := range []string{"/etc/pcp.conf", "testdata/quoting.conf"} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(string(b))
		}
	}
	f.Add("PCP_A=1\nPCP_A=2\n")
	f.Add("PCP_L=" + strings.Repeat("x", 5000) + "=y\n")
	f.Add("PCP_Q='a b'\nPCP_S=\"\nPCP_E=\n=x=y\n#PCP_C=1\nNOEQ\n")
}

// FuzzParseText: parseText, which cached uses, reads any text as Parse
// reads it without the environment.
func FuzzParseText(f *testing.F) {
	addSeeds(f)
	f.Add("PCP_N=a\x00b\nPCP_Z\x00=1\n")
	f.Fuzz(func(t *testing.T, text string) {
		want, err := Parse(strings.NewReader(text), none)
		if err != nil {
			t.Fatal(err)
		}
		if got := parseText(text); !maps.Equal(got, want) {
			t.Fatalf("parseText %q\nParse %q", got, want)
		}
	})
}

// TestParseFileAsParse: parseFile reads a small file whole and a large
// one as a stream, each as Parse reads it.
func TestParseFileAsParse(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ name, text string }{
		{"empty", ""},
		{"small", "PCP_A=1\nPCP_B='two'\n#PCP_C=3\nPCP_A=4"},
		{"large", strings.Repeat("PCP_X=long value of a line\n", 3000) + "PCP_Y=y\n"},
	} {
		path := filepath.Join(dir, c.name)
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := parseFile(path, int64(len(c.text)))
		if err != nil {
			t.Fatal(err)
		}
		want, _ := Parse(strings.NewReader(c.text), none)
		if !maps.Equal(got, want) {
			t.Errorf("%s: got %q, want %q", c.name, got, want)
		}
		// the file grown past the bound since its size was taken
		if got, err := parseFile(path, 1); err != nil || !maps.Equal(got, want) {
			t.Errorf("%s with a stale size: got %q (%v), want %q", c.name, got, err, want)
		}
	}
}
