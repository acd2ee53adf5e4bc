package trivial

import (
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// PMID is a constant so that the package needs no initialisation; it
// must be what pcp.NewPMID packs.
func TestPMIDConstant(t *testing.T) {
	if want := pcp.NewPMID(Domain, 0, 0); PMID != want {
		t.Errorf("PMID %s, want %s", PMID, want)
	}
}
