package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestDerivedNamesAgainstPCP compares metric operands that name derived
// metrics, which libpcp's pmLookupName knows in an archive context too:
// the anonymous event.flags and event.missed (in the namespace pminfo
// lists, so the sweep over every QA archive named them) and
// PCP_DERIVED_CONFIG's definitions, bound or not. They print no values;
// a bad definition is reported once the archive opens.
func TestDerivedNamesAgainstPCP(t *testing.T) {
	secs := clitest.QAArchive(t, "sample-secs")
	conf := filepath.Join(t.TempDir(), "derived.conf")
	if err := os.WriteFile(conf, []byte("foo.bad = 3 +\nfoo.unbound = no.such.metric + 1\nfoo.ok = sample.seconds * 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"PCP_DERIVED_CONFIG=" + conf}
	cases := []clitest.Case{
		{Name: "event.missed", Args: []string{"-m", secs, "sample.seconds", "pmcd.pmlogger.port", "event.missed"}},
		{Name: "event.flags only", Args: []string{secs, "event.flags"}},
		{Name: "event non-leaf", Args: []string{secs, "event", "sample.seconds"}},
		{Name: "event.flags with -n", Args: []string{"-n", filepath.Join(clitest.QAArchives, "bigace.pmns"), secs, "event.flags", "sample.seconds"}},
		{Name: "config", Args: []string{"-l", secs, "sample.seconds", "foo.unbound", "foo.ok", "foo"}, Env: env},
		{Name: "config label only", Args: []string{"-z", "-l", secs}, Env: env},
		{Name: "config bad window", Args: []string{"-l", "-S", "garbage", secs}, Env: env},
		{Name: "config no archive", Args: []string{"-l", secs + "-nosuch"}, Env: env},
	}
	clitest.CompareLocal(t, "pmdumplog", func(_ context.Context, argv []string, stdout, stderr io.Writer) int {
		return run(argv, stdout, stderr)
	}, cases)
}
