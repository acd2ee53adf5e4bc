package main

import (
	"fmt"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// FuzzParseIDs reads fuzzed PMIDs ("domain.cluster.item") and instance
// domains ("domain.serial") as pmseries' -i and -m style arguments give
// them: one taken packs its numbers into PCP's fields (cut to their
// widths, as pmID_build and pmInDom_build cut them), and printed back in
// the dotted form it reads the same.
func FuzzParseIDs(f *testing.F) {
	for _, s := range []string{"60.0.20", "60.1", "511.4095.1023", "512.0.0", "1.2", "1.2.3.4", "", ".", "4294967296.0.0", "+1.2.3", "01.02.03"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if v, ok := parsePMID(s); ok {
			id := pcp.PMID(v)
			text := fmt.Sprintf("%d.%d.%d", id.Domain(), id.Cluster(), id.Item())
			if again, ok := parsePMID(text); !ok || again != v {
				t.Fatalf("parsePMID(%q) = %#x, printed %q reads %#x %v", s, v, text, again, ok)
			}
		} else if v != 0xffffffff {
			t.Fatalf("parsePMID(%q) refused with %#x", s, v)
		}
		if v, ok := parseInDom(s); ok {
			id := pcp.InDom(v)
			text := fmt.Sprintf("%d.%d", id.Domain(), id.Serial())
			if again, ok := parseInDom(text); !ok || again != v {
				t.Fatalf("parseInDom(%q) = %#x, printed %q reads %#x %v", s, v, text, again, ok)
			}
		} else if v != 0xffffffff {
			t.Fatalf("parseInDom(%q) refused with %#x", s, v)
		}
	})
}
