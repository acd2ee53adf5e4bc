package simple

import (
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// The PMIDs are constants so that the package needs no initialisation;
// they must be what pcp.NewPMID packs.
func TestPMIDConstants(t *testing.T) {
	for _, c := range []struct {
		name          string
		got           pcp.PMID
		cluster, item uint32
	}{
		{"numfetch", NumFetch, 0, 0},
		{"color", Color, 0, 1},
		{"time.user", TimeUser, 1, 2},
		{"time.sys", TimeSys, 1, 3},
		{"now", Now, 2, 4},
	} {
		if want := pcp.NewPMID(Domain, c.cluster, c.item); c.got != want {
			t.Errorf("%s: %s, want %s", c.name, c.got, want)
		}
	}
}
