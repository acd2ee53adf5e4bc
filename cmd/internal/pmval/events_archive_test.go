package pmval

import (
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestEventArchivesAgainstPCP compares pmval -a on the QA archives that
// hold event records with PCP's pmval, and the same program as pmevent
// with PCP's pmevent (its other name, in its usage and messages): legacy
// and high-resolution records, records without an instance domain,
// interpolated and as-logged (-U) reporting, -i, -x, -r, windows with an
// origin and alignment, time zones, archive metric specifications.
func TestEventArchivesAgainstPCP(t *testing.T) {
	var cases []clitest.Case
	for _, name := range []string{"eventrec", "eventrec-old"} {
		arch := clitest.QAArchive(t, name)
		a := func(args ...string) []string { return append([]string{"-a", arch}, args...) }
		cases = append(cases,
			clitest.Case{Name: name + " records", Args: a("sample.event.records")},
			clitest.Case{Name: name + " records step", Args: a("-t", "0.5", "sample.event.records")},
			clitest.Case{Name: name + " as logged", Args: a("-U", arch, "sample.event.records")},
			clitest.Case{Name: name + " dso records", Args: a("-t", "2", "sampledso.event.records")},
			clitest.Case{Name: name + " no indom", Args: a("sample.event.no_indom_records")},
			clitest.Case{Name: name + " highres", Args: a("sample.event.highres_records")},
			clitest.Case{Name: name + " window zone", Args: a("-S", "+2", "-T", "+4", "-z", "sample.event.records")},
			clitest.Case{Name: name + " stamps", Args: a("-X", "-s", "3", "sampledso.event.no_indom_records")},
			clitest.Case{Name: name + " anonymous", Args: a("event.flags")},
			clitest.Case{Name: name + " instance", Args: a("-i", "fungus", "-s", "4", "sample.event.records")},
			clitest.Case{Name: name + " origin", Args: a("-S", "+1", "-T", "+5", "-O", "+2", "-z", "sample.event.no_indom_records")},
			clitest.Case{Name: name + " align", Args: a("-A", "1sec", "-Z", "Australia/Melbourne", "-X", "sampledso.event.records")},
			clitest.Case{Name: name + " raw", Args: a("-r", "-s", "3", "sample.event.records")},
			clitest.Case{Name: name + " filter", Args: a("-x", "fungus", "sample.event.records")},
			clitest.Case{Name: name + " spec", Args: []string{arch + "/sample.event.highres_records"}},
			clitest.Case{Name: name + " bad metric", Args: a("sample.event.nosuch")},
		)
	}
	for _, tool := range []string{"pmval", "pmevent"} {
		t.Run(tool, func(t *testing.T) { clitest.CompareLocal(t, tool, run, cases) })
	}
}
