package linux

import (
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// TestPMIDTable: every bound metric's PMID finds its binding; the same
// cluster and item under another domain, an item or cluster past the
// table's end and one never bound find nothing.
func TestPMIDTable(t *testing.T) {
	x, err := newLinux(Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := x.agent(Domain); err != nil {
		t.Fatal(err)
	}
	n := 0
	for i := range pcpDescs {
		d := &pcpDescs[i]
		id := d.desc(Domain).PMID
		b, bound := x.boundAt(i)
		got := x.byPMID.get(id)
		if !bound {
			if got != nil {
				t.Errorf("%s: a binding, but none was made", d.Name)
			}
			continue
		}
		n++
		if got == nil || got.src != b.src {
			t.Errorf("%s (%v): binding %v, want source %d", d.Name, id, got, b.src)
		}
		if x.byPMID.get(pcp.NewPMID(Domain+1, id.Cluster(), id.Item())) != nil {
			t.Errorf("%s: found under domain %d", d.Name, Domain+1)
		}
	}
	for _, id := range []pcp.PMID{pcp.NewPMID(Domain, 4095, 0), pcp.NewPMID(Domain, 0, 1023), 0} {
		if x.byPMID.get(id) != nil {
			t.Errorf("%v: found", id)
		}
	}
	if n < 1000 {
		t.Errorf("%d metrics bound", n)
	}
}
