package pmval

import (
	"testing"

	"github.com/gopcp/gopcp/internal/cli"
	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestEmptyTimeArgsAgainstPCP gives -S, -T, -O and -A empty arguments
// (and PCP_START_TIME and PCP_ORIGIN_TIME empty values) to PCP's pmval
// and ours on QA archive 20041125, the present faked to 00:30 CET on the
// archive's day. An empty time is a free-form date, midnight today: in
// the zone ABC-0:30 that falls inside the archive, in UTC on the day
// before it, so windows start or end there; an empty -A is refused.
func TestEmptyTimeArgsAgainstPCP(t *testing.T) {
	archive := clitest.QAArchive(t, "20041125")
	env := append(clitest.FakeClock(t, 1101339000, &cli.Now), "TZ=UTC") // Thu Nov 25 00:30:00 2004 CET

	var cases []clitest.Case
	add := func(name string, caseEnv []string, args ...string) {
		args = append(append([]string{"-a", archive, "-t", "4m", "-s", "4"}, args...), "kernel.all.load")
		cases = append(cases, clitest.Case{Name: name, Args: args, Env: append(append([]string{}, env...), caseEnv...)})
	}
	for _, zone := range [][]string{nil, {"-z"}, {"-Z", "ABC-0:30"}, {"-Z", "EST-10"}} {
		z := func(args ...string) []string { return append(append([]string{}, zone...), args...) }
		add("S", nil, z("-S", "")...)
		add("T", nil, z("-T", "")...)
		add("O", nil, z("-O", "")...)
		add("A", nil, z("-A", "")...)
		add("S T", nil, z("-S", "", "-T", "")...)
		add("S +T", nil, z("-S", "", "-T", "+10min")...)
		add("S@ T", nil, z("-S", "@00:20", "-T", "")...)
		add("T O", nil, z("-T", "", "-O", "")...)
		add("A1m S O", nil, z("-A", "1m", "-S", "", "-O", "")...)
		add("start=", nil, z("--start=")...)
		add("env S", []string{"PCP_START_TIME="}, zone...)
		add("env O", []string{"PCP_ORIGIN_TIME="}, zone...)
		add("env S, -S", []string{"PCP_START_TIME=@00:20"}, z("-S", "")...)
	}
	clitest.CompareLocal(t, "pmval", run, cases)
}
