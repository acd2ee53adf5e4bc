package main

import (
	"context"
	"io"
	"testing"

	"github.com/gopcp/gopcp/internal/cli"
	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestEmptyTimeArgsAgainstPCP gives -S and -T empty arguments (and
// PCP_START_TIME an empty value) to PCP's pmdumplog and ours on QA
// archive 20041125 with the present faked to 00:30 CET on the archive's
// day: an empty time is midnight today, inside the archive in zone
// ABC-0:30 and before it in UTC.
func TestEmptyTimeArgsAgainstPCP(t *testing.T) {
	archive := clitest.QAArchive(t, "20041125")
	env := clitest.FakeClock(t, 1101339000, &cli.Now) // Thu Nov 25 00:30:00 2004 CET
	var cases []clitest.Case
	add := func(name string, caseEnv []string, args ...string) {
		args = append(args, archive, "kernel.all.load")
		cases = append(cases, clitest.Case{Name: name, Args: args, Env: append(append([]string{}, env...), caseEnv...)})
	}
	for _, zone := range [][]string{nil, {"-z"}, {"-Z", "ABC-0:30"}} {
		z := func(args ...string) []string { return append(append([]string{}, zone...), args...) }
		add("S", nil, z("-S", "")...)
		add("T", nil, z("-T", "")...)
		add("S T", nil, z("-S", "", "-T", "")...)
		add("S +T", nil, z("-S", "", "-T", "+5min")...)
		add("reverse T", nil, z("-r", "-T", "")...)
		add("env S", []string{"PCP_START_TIME="}, zone...)
	}
	clitest.CompareLocal(t, "pmdumplog", func(_ context.Context, argv []string, stdout, stderr io.Writer) int {
		return run(argv, stdout, stderr)
	}, cases)
}
