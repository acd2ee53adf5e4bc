package main

import (
	"path/filepath"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestUnboundDerived compares pmprobe with PCP's on derived metrics
// that fail to bind in the archive (their operands are missing): pmprobe
// fetches archive metrics one at a time, so each goes to the archive as
// it is and has no values, which PCP's shows as 0; -v and -i ask for the
// descriptor and report its error.
func TestUnboundDerived(t *testing.T) {
	conf, err := filepath.Abs("testdata/unbound.conf")
	if err != nil {
		t.Fatal(err)
	}
	env := []string{"PCP_DERIVED_CONFIG=" + conf}
	a := clitest.QAArchive(t, "20041125")
	var cases []clitest.Case
	for _, args := range [][]string{
		{"probe"},
		{"probe.unbound"},
		{"probe.unbound.a"},
		{"-v", "probe"},
		{"-i", "probe.unbound"},
		{"-I", "-f", "probe"},
		{"-b", "3", "probe"},
		{"probe.unbound.a", "swap.pagesin"},
		{"probe.unbound.a", "probe.bound"},
	} {
		cases = append(cases, clitest.Case{Name: filepath.Join(args...), Args: append([]string{"-a", a}, args...), Env: env})
	}
	clitest.CompareLocal(t, "pmprobe", run, cases)
}
