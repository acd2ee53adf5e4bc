package main

import (
	"path/filepath"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestTrimmedNamespaceAgainstPCP compares pminfo -a with -n or -N on
// archives that have none of the metrics under some nodes of the
// namespace file (found by sweeping every QA archive with bigace.pmns):
// pmTrimNameSpace hides such a node with its leaves, so naming it is
// 'Unknown metric name', not a lookup of a non-leaf.
func TestTrimmedNamespaceAgainstPCP(t *testing.T) {
	pmnsFile := filepath.Join(clitest.QAArchives, "bigace.pmns")
	var cases []clitest.Case
	for _, a := range []string{"573184", "pcpcmd", "changeinst", "bigace_v2"} {
		arch := clitest.QAArchive(t, a)
		for _, args := range [][]string{
			{"-a", arch, "-N", pmnsFile, "-f", "-O", "+30", "irix.disk.all.read", "pmcd.pmlogger.port", "irix", "no.such.metric"},
			{"-a", arch, "-n", pmnsFile, "-m", "irix", "irix.kernel", "sample"},
			{"-a", arch, "-n", pmnsFile, "-t", "hinv.ncpu", "irix.disk", "irix.disk.dev.read"},
			{"-a", arch, "-n", pmnsFile, "-d"},
		} {
			cases = append(cases, clitest.Case{Name: a, Args: args})
		}
	}
	clitest.CompareLocal(t, "pminfo", run, cases)
}
