package linux

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

var updateHelp = flag.Bool("update-help", false, "rewrite testdata/help.golden from the agent's help")

// TestHelpGolden pins every metric's and instance domain's one-line and
// full help: testdata/help.golden was written from the help as it was
// built in Go (tables and phrase families, some overwritten by later
// ones) before it moved to the one help source, so a change of a single
// text shows.
func TestHelpGolden(t *testing.T) {
	h, err := help()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, d := range pcpDescs {
		one, full, _ := h.Text(d.desc(Domain).PMID)
		fmt.Fprintf(&b, "%s\t%q\t%q\n", d.Name, one, full)
	}
	for serial := range numInDoms {
		one, full, _ := h.InDomText(pcp.NewInDom(Domain, uint32(serial)))
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

// TestHelpSourceOnce checks that the help source names each metric and
// instance domain once: one text each, none overwriting another.
func TestHelpSourceOnce(t *testing.T) {
	seen := map[string]int{}
	for i, line := range strings.Split(string(helpSource), "\n") {
		if !strings.HasPrefix(line, "@") {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimSpace(line[1:]), " ")
		if prev, ok := seen[name]; ok {
			t.Errorf("help line %d: %s again (first at line %d)", i+1, name, prev)
		}
		seen[name] = i + 1
	}
	h, err := help()
	if err != nil {
		t.Fatal(err)
	}
	if h.Len() != len(seen) {
		t.Errorf("%d texts read, %d entries in the source", h.Len(), len(seen))
	}
}
