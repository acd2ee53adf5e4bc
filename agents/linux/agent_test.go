package linux

import (
	"context"
	"testing"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// TestTable checks every exported metric has PCP's descriptor, help text
// and a value or an expected absence on this host.
func TestTable(t *testing.T) {
	x, err := newLinux(Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	a, err := x.agent(Domain)
	if err != nil {
		t.Fatal(err)
	}
	h, err := help()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for i := range pcpDescs {
		d := &pcpDescs[i]
		if _, ok := x.boundAt(i); !ok {
			continue
		}
		n++
		m := a.Metric(d.desc(Domain).PMID)
		if m == nil {
			t.Errorf("%s: not in the agent", d.Name)
			continue
		}
		if m.Desc != d.desc(Domain) {
			t.Errorf("%s: desc %+v, PCP's %+v", d.Name, m.Desc, d.desc(Domain))
		}
		// Help is read at the first text request, not put in the table.
		ctx := context.Background()
		got1, err1 := a.Text(ctx, 0, uint32(m.Desc.PMID), pdu.TextPMID|pdu.TextOneLine)
		gotH, errH := a.Text(ctx, 0, uint32(m.Desc.PMID), pdu.TextPMID|pdu.TextHelp)
		if err1 != nil || errH != nil {
			t.Errorf("%s: no help: %v %v", d.Name, err1, errH)
		}
		if one, full, _ := h.Text(m.Desc.PMID); got1 != one || gotH != full {
			t.Errorf("%s: help %q %q, the help source's %q %q", d.Name, got1, gotH, one, full)
		}
	}
	t.Logf("%d of PCP's %d metrics", n, len(pcpDescs))
	var pmids []pcp.PMID
	for i := range pcpDescs {
		if _, ok := x.boundAt(i); ok {
			pmids = append(pmids, pcpDescs[i].desc(Domain).PMID)
		}
	}
	res, err := a.Fetch(context.Background(), 0, pmids)
	if err != nil {
		t.Fatal(err)
	}
	empty := 0
	for _, s := range res.Sets {
		if s.NumVal <= 0 {
			empty++
		}
	}
	t.Logf("%d of %d fetched metrics have no values here", empty, len(res.Sets))
}
