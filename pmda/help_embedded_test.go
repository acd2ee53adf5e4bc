package pmda

import (
	"errors"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

func TestHelpFromSource(t *testing.T) {
	src := []byte("$ help source\n@ demo.one One line.\nLonger text\nof two lines.\n\n@ DEMO.3 Instance domain.\nUnits of time.\n")
	pmids := map[string]pcp.PMID{"demo.one": pcp.NewPMID(7, 0, 1)}
	h, err := HelpFromSource(src, "help", pmids, map[string]uint32{"DEMO": 7})
	if err != nil {
		t.Fatal(err)
	}
	one, text, ok := h.Text(pcp.NewPMID(7, 0, 1))
	if !ok || one != "One line." || text != "Longer text\nof two lines." {
		t.Errorf("Text(7.0.1) = %q, %q, %v", one, text, ok)
	}
	if one, _, ok := h.InDomText(pcp.NewInDom(7, 3)); !ok || one != "Instance domain." {
		t.Errorf("InDomText(7.3) = %q, %v", one, ok)
	}
	if _, err := HelpFromSource([]byte("@ demo.unknown Text.\n"), "help", pmids, nil); !errors.Is(err, pcp.ErrName) {
		t.Errorf("unknown name: err = %v, want PM_ERR_NAME", err)
	}
}
