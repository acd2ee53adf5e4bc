package main

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// sampleDSO is the -K specification that makes PCP's tools load the sample
// agent's DSO in a local context; ours run the sample agent registered
// under the same entry point.
const (
	sampleDSO  = "add,29,/var/lib/pcp/pmdas/sample/pmda_sample.so,sample_init"
	sampleRoot = "/var/lib/pcp/pmdas/sample/root"
)

// TestAgainstPCP compares pmprobe with PCP's on one pmcd with PCP's sample
// agent, and on local contexts with PCP's sample DSO against ours.
func TestAgainstPCP(t *testing.T) {
	bed := testbed.StartPMCD(t, testbed.Options{Env: []string{"PCP_DERIVED_CONFIG="}})
	// "unreachable host": a private port reserved to the test's end, which
	// nothing listens on (no other test run is handed it meanwhile).
	nowhere := "localhost:" + strconv.Itoa(testbed.ReservedPort(t))
	t.Setenv("PCP_DERIVED_CONFIG", "")
	unboundLive, err := filepath.Abs("testdata/unbound-live.conf")
	if err != nil {
		t.Fatal(err)
	}
	local := []string{"-L", "-K", "clear", "-K", sampleDSO, "-n", sampleRoot}
	stopRoot, err := filepath.Abs("testdata/stop.pmns")
	if err != nil {
		t.Fatal(err)
	}
	with := func(extra ...string) []string { return append(append([]string{}, local...), extra...) }
	values := func(s string) string { return clitest.Numbers(s) }
	clitest.Compare(t, "pmprobe", run, bed, []clitest.Case{
		{Name: "counts", Args: []string{"sample.long", "sample.colour", "sample.bin"}},
		{Name: "values", Args: []string{"-v", "sample.long", "sample.ulong", "sample.float", "sample.double", "sample.string.hullo"}},
		{Name: "values changing", Args: []string{"-v", "sample.seconds", "sample.colour"}, Mask: values},
		{Name: "internal", Args: []string{"-i", "sample.colour", "sample.long.one", "sample.bin"}},
		{Name: "external", Args: []string{"-I", "sample.colour", "sample.bin", "sample.long.one"}},
		{Name: "both", Args: []string{"-iI", "sample.bin", "sample.long.ten"}},
		{Name: "force internal", Args: []string{"-f", "-i", "sample.colour", "sample.long.one"}},
		{Name: "force external", Args: []string{"-fI", "sample.needprofile", "sample.bin"}},
		{Name: "force both", Args: []string{"-fiI", "sample.long.one", "sample.mirage"}},
		{Name: "faster", Args: []string{"-F", "sample.long.one", "sample.colour"}},
		{Name: "faster unknown", Args: []string{"-F", "sample.long.one", "no.such.metric"}},
		{Name: "faster non-leaf", Args: []string{"-F", "sample.long"}},
		{Name: "faster all unknown", Args: []string{"-F", "no.such", "nor.this"}},
		{Name: "unknown metric", Args: []string{"no.such.metric", "sample.long.one"}},
		{Name: "errors", Args: []string{"-v", "sample.bad", "sample.noinst", "sample.needprofile"}},
		{Name: "batch 1", Args: []string{"-b", "1", "-v", "sample.long"}},
		{Name: "batch 3", Args: []string{"-b3", "sample.long", "sample.ulong"}},
		{Name: "whole sample", Args: []string{"sample"}, Mask: noScramble},
		{Name: "whole sample values", Args: []string{"-v", "sample.long", "sample.ulong", "sample.longlong", "sample.string"}},
		{Name: "anonymous", Args: []string{"-v", "event"}},
		{Name: "pmcd", Args: []string{"pmcd.agent", "pmcd.pmlogger"}},
		{Name: "verbose", Args: []string{"-V", "sample.long.one", "sample.colour"}},
		{Name: "verbose values", Args: []string{"-Vv", "sample.long", "sample.bin"}},
		{Name: "long options", Args: []string{"--values", "--internal", "sample.long.one"}},
		{Name: "values and internal", Args: []string{"-v", "-i", "sample.long.one"}},
		{Name: "internal and values", Args: []string{"-i", "-v", "sample.long.one"}},
		{Name: "external and values", Args: []string{"-I", "-v", "sample.long.one"}},
		{Name: "version", Args: []string{"--version"}, NoHost: true},
		{Name: "d is not version", Args: []string{"-d"}, NoHost: true},
		{Name: "e", Args: []string{"-e"}, NoHost: true},
		{Name: "help", Args: []string{"-?"}, NoHost: true},
		{Name: "bad option", Args: []string{"-y", "sample"}, NoHost: true},
		{Name: "bad batch", Args: []string{"-b", "x", "sample"}, NoHost: true},
		{Name: "unreachable host", Args: []string{"-h", nowhere, "sample"}, NoHost: true},
		{Name: "bad host spec", Args: []string{"-h", "foo:bar:", "sample"}, NoHost: true},
		{Name: "no agent", Args: []string{"-L", "-K", "clear", "-n", sampleRoot, "sample.long.one", "event"}, NoHost: true},
		{Name: "bad spec", Args: []string{"-L", "-K", "bogus", "sample"}, NoHost: true},
		{Name: "spec errors", Args: []string{"-K", "add", "-K", "add,", "-K", "add,511,x,y", "-K", "add,29", "-K", "add,29,/p", "-K", "del,,", "-K", "clear,"}, NoHost: true},
		{Name: "spec del unknown", Args: []string{"-K", "clear", "-K", "del,99", "sample"}, NoHost: true},
		{Name: "derived missing", Args: []string{"--derived=/nonexistent/x", "sample.long.one"}},
		// unbound alone goes to pmcd as it is; beside a bound one it is
		// PM_ERR_PMID
		{Name: "derived unbound", Args: []string{"--derived=" + unboundLive, "probe.unbound.a"}},
		{Name: "derived unbound values", Args: []string{"-v", "--derived=" + unboundLive, "probe.unbound.a", "sample.long.one"}},
		{Name: "derived unbound and bound", Args: []string{"--derived=" + unboundLive, "probe"}},
		{Name: "derived unbound and bound batch 1", Args: []string{"-b", "1", "--derived=" + unboundLive, "probe"}},
		{Name: "local values", Args: with("-v", "sample.long", "sample.colour", "sample.string.hullo"), NoHost: true},
		{Name: "local instances", Args: with("-iI", "sample.bin", "sample.colour", "sample.long.one"), NoHost: true},
		{Name: "local force", Args: with("-fiI", "sample.colour", "sample.mirage"), NoHost: true},
		{Name: "local unknown", Args: with("sample.long.one", "nosuch"), NoHost: true},
		// A local traversal stops at a dynamic subtree whose agent is
		// not loaded, keeping the names it found before: without names
		// pmprobe lists those and says nothing of the stop; a name
		// given reports it after them.
		{Name: "local all, stopped", Args: []string{"-L", "-K", "clear", "-K", sampleDSO, "-n", stopRoot}, NoHost: true},
		{Name: "local name, stopped", Args: []string{"-L", "-K", "clear", "-K", sampleDSO, "-n", stopRoot, "sample"}, NoHost: true},
		{Name: "local all, no agents", Args: []string{"-L", "-K", "clear", "-n", stopRoot}, NoHost: true},
	})
}

// noScramble drops sample.scramble.bin, whose instances change at every
// fetch by design.
func noScramble(s string) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		if !strings.HasPrefix(l, "sample.scramble.bin ") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}
