package sample

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

var updateHelp = flag.Bool("update-help", false, "rewrite testdata/help.golden from the agent's help")

// TestHelpGolden pins every metric's and instance domain's one-line and
// full help as the agent answers requests for them: testdata/help.golden was
// written from the help as it was (Go tables by item number) before it
// moved to the help source file, so a change of a single text shows.
func TestHelpGolden(t *testing.T) {
	a, err := New(Domain, Options{PMDAsDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	text := func(ident uint32, typ int32) string {
		s, err := a.Text(context.Background(), 0, ident, typ)
		if err != nil {
			t.Errorf("help of %#x: %v", ident, err)
		}
		return s
	}
	var b strings.Builder
	for _, d := range defs {
		id := pcp.NewPMID(Domain, 0, d.item)
		fmt.Fprintf(&b, "%s\t%q\t%q\n", id,
			text(uint32(id), pdu.TextPMID|pdu.TextOneLine), text(uint32(id), pdu.TextPMID|pdu.TextHelp))
	}
	for serial := colourInDom; serial <= procInDom; serial++ {
		id := pcp.NewInDom(Domain, serial)
		fmt.Fprintf(&b, "indom %d\t%q\t%q\n", serial,
			text(uint32(id), pdu.TextInDom|pdu.TextOneLine), text(uint32(id), pdu.TextInDom|pdu.TextHelp))
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
	if h.Len() != len(seen) || len(seen) != len(defs)+int(procInDom) {
		t.Errorf("%d texts read, %d entries in the source, %d metrics and instance domains", h.Len(), len(seen), len(defs)+int(procInDom))
	}
}
