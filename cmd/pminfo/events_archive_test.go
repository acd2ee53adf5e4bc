package main

import (
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestEventArchivesAgainstPCP compares pminfo -a on the QA archives that
// hold event records (legacy and high resolution, records with and
// without an instance domain, missed-record flags, both archive
// versions) with PCP's pminfo: descriptors, values and unpacked records.
func TestEventArchivesAgainstPCP(t *testing.T) {
	var cases []clitest.Case
	for _, name := range []string{"eventrec", "eventrec-old"} {
		arch := clitest.QAArchive(t, name)
		for _, opts := range [][]string{
			{"-x", "sample.event"},
			{"-x", "sampledso.event"},
			{"-fx", "sample.event.records"},
			{"-dx", "sample.event.highres_records"},
			{"-x", "sample.event.no_indom_records"},
			{"-x", "-S", "+3", "sample.event.records"},
			{"-x", "-z", "sampledso.event.records"},
			{"-d", "event"},
			{"-x", "-M", "sample.event.param_string"},
		} {
			cases = append(cases, clitest.Case{
				Name: name + " " + join(opts),
				Args: append([]string{"-a", arch}, opts...),
				Mask: maskAnonHelp,
			})
		}
	}
	clitest.CompareLocal(t, "pminfo", run, cases)
}
