package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/getopt"
)

// FuzzArchiveFolio reads fuzzed archive folios (PCP_FOLIO). Without the
// PCPFolio magic and version 1 the folio is refused with one message and
// no archive; otherwise each archive named is a word of an "Archive:"
// line, taken from the folio's directory when relative, there are no
// more than such lines, and a message names a line of the folio.
func FuzzArchiveFolio(f *testing.F) {
	for _, p := range []string{"/var/lib/pcp/testsuite/20071023-08-06-36.folio", "/var/lib/pcp/testsuite/archives/pcp-atop-log.folio"} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(string(b))
		}
	}
	f.Add("PCPFolio\nVersion: 1\nArchive: host\nArchive:\thost /abs/a\vb\nArchive: h rel\n")
	f.Add("PCPFolio\nVersion: 2\n")
	f.Add("PCPFoliox")
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, text string) {
		path := filepath.Join(dir, "folio")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		p := &Parsed{Parsed: getopt.Begin(&getopt.Command{Name: "fuzz"}, nil, nil), multi: true}
		p.addArchiveFolio(path, true)
		lines := strings.Split(text, "\n")
		good := strings.HasPrefix(text, "PCPFolio") && len(lines) > 1 && strings.HasPrefix(lines[1], "Version: 1")
		if !good {
			if p.Errors != 1 || len(p.Archives) != 0 || !p.RuntimeErr {
				t.Fatalf("bad folio: %d errors %q, archives %q", p.Errors, p.Messages, p.Archives)
			}
			return
		}
		if p.Errors > 1 {
			t.Fatalf("%d errors: %q", p.Errors, p.Messages)
		}
		archiveLines := 0
		for _, l := range lines[2:] {
			if strings.HasPrefix(l, "Archive:") {
				archiveLines++
			}
		}
		if len(p.Archives) > archiveLines {
			t.Fatalf("%d archives from %d lines", len(p.Archives), archiveLines)
		}
		for _, a := range p.Archives {
			word := strings.TrimPrefix(a, dir+string(filepath.Separator))
			if a == "" || strings.ContainsAny(word, " \t\n\v\f\r") || !strings.Contains(text, word) || !filepath.IsAbs(a) {
				t.Fatalf("archive %q from %q", a, text)
			}
		}
		for _, m := range p.Messages {
			var n int
			if i := strings.Index(m, "line "); i >= 0 {
				if _, err := fmtSscan(m[i+5:], &n); err != nil || n < 3 || n > len(lines)+1 {
					t.Fatalf("message %q for %d lines", m, len(lines))
				}
			}
		}
	})
}

// fmtSscan reads the line number at the start of s.
func fmtSscan(s string, n *int) (int, error) { return fmt.Sscan(strings.TrimSpace(s), n) }
