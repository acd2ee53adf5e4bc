package pmval

import (
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestEmptyZoneAgainstPCP gives -Z an empty zone, and PCP_TIMEZONE an
// empty value: libpcp takes either as the zone "TZ=" (UTC), notes it, and
// refuses it beside -z. The local zone is New York so UTC shows.
func TestEmptyZoneAgainstPCP(t *testing.T) {
	archive := clitest.QAArchive(t, "20041125")
	ny := []string{"TZ=America/New_York"}
	cases := []clitest.Case{
		{Name: "Z", Args: []string{"-Z", "", "-a", archive, "-s", "2", "kernel.all.load"}, Env: ny},
		{Name: "Z window", Args: []string{"-Z", "", "-S", "@23:20", "-T", "+4m", "-t", "2m", "-a", archive, "kernel.all.load"}, Env: ny},
		{Name: "z Z", Args: []string{"-z", "-Z", "", "-a", archive, "-s", "1", "kernel.all.load"}, Env: ny},
		{Name: "Z z", Args: []string{"-Z", "", "-z", "-a", archive, "-s", "1", "kernel.all.load"}, Env: ny},
		{Name: "env", Args: []string{"-a", archive, "-s", "2", "-t", "10m", "kernel.all.load"}, Env: []string{"TZ=America/New_York", "PCP_TIMEZONE="}},
		{Name: "env and z", Args: []string{"-z", "-a", archive, "-s", "1", "kernel.all.load"}, Env: []string{"TZ=America/New_York", "PCP_TIMEZONE="}},
	}
	clitest.CompareLocal(t, "pmval", run, cases)
}
