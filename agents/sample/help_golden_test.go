package sample

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateHelp = flag.Bool("update-help", false, "rewrite testdata/help.golden from the agent's help")

// TestHelpGolden pins every metric's and instance domain's one-line and
// full help as the agent hands them to pmda.New: testdata/help.golden was
// written from the help as it was before it moved to a help source file,
// so a change of a single text shows.
func TestHelpGolden(t *testing.T) {
	var b strings.Builder
	s := newAgent(Domain, Options{PMDAsDir: t.TempDir()})
	for _, m := range s.metrics() {
		fmt.Fprintf(&b, "%s\t%q\t%q\n", m.Desc.PMID, m.OneLine, m.Help)
	}
	for _, d := range indomTable() {
		fmt.Fprintf(&b, "indom %d\t%q\t%q\n", d.InDom.Serial(), d.OneLine, d.Help)
	}
	golden := filepath.Join("testdata", "help.golden")
	if *updateHelp {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	got, wantLines := strings.Split(b.String(), "\n"), strings.Split(string(want), "\n")
	for i := range min(len(got), len(wantLines)) {
		if got[i] != wantLines[i] {
			t.Errorf("line %d:\n got %s\nwant %s", i+1, got[i], wantLines[i])
		}
	}
	if len(got) != len(wantLines) {
		t.Errorf("help has %d lines, golden %d", len(got), len(wantLines))
	}
}
