package main

import (
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestArchivesAgainstPCP compares pmclient with PCP's on archives.
func TestArchivesAgainstPCP(t *testing.T) {
	clitest.CompareLocal(t, "pmclient", run, clitest.GuideClientCases(t))
}

// TestHostAgainstPCP compares pmclient with PCP's on a private PCP pmcd
// with the Linux agent: the report's layout and the error paths.
func TestHostAgainstPCP(t *testing.T) {
	bed := testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(), testbed.LinuxAgent()}})
	clitest.Compare(t, "pmclient", run, bed, []clitest.Case{
		{Name: "two", Args: []string{"-t", "0.2", "-s", "2"}, Mask: clitest.GuideClientLive},
		{Name: "zone", Args: []string{"-t", "0.1", "-s", "1", "-Z", "UTC"}, Mask: clitest.GuideClientLive},
		{Name: "pause", Args: []string{"-P", "-s", "1"}},
		{Name: "namespace", Args: []string{"-s", "1", "-n", "/nonexistent"}},
		{Name: "local", Args: []string{"-t", "0.1", "-s", "1"}, NoHost: true, Mask: clitest.GuideClientLive},
	})
}
