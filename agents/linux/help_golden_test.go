package linux

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
// full help: testdata/help.golden was written from the help as it was
// before it moved to one source, so a change of a single text shows.
func TestHelpGolden(t *testing.T) {
	var b strings.Builder
	for _, d := range pcpDescs {
		one, full := helpText(d.name)
		fmt.Fprintf(&b, "%s\t%q\t%q\n", d.name, one, full)
	}
	for serial := range numInDoms {
		one, full := indomHelp(serial)
		fmt.Fprintf(&b, "indom %d\t%q\t%q\n", serial, one, full)
	}
	golden := filepath.Join("testdata", "help.golden")
	if *updateHelp {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(b.String(), "\n")
	for i, w := range strings.Split(string(want), "\n") {
		if i >= len(got) {
			t.Fatalf("help has %d lines, golden %d", len(got), i+1)
		}
		if got[i] != w {
			t.Errorf("line %d:\n got %s\nwant %s", i+1, got[i], w)
		}
	}
	if n := len(strings.Split(string(want), "\n")); len(got) != n {
		t.Errorf("help has %d lines, golden %d", len(got), n)
	}
}
