package pmval

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

const (
	sampleDSO  = "add,29,/var/lib/pcp/pmdas/sample/pmda_sample.so,sample_init"
	sampleRoot = "/var/lib/pcp/pmdas/sample/root"
)

var (
	// rates and changing values: numbers with a decimal point or an
	// exponent, and runs of digits in value columns
	rateValue = regexp.MustCompile(`[0-9]+\.[0-9]*(E[+-][0-9]+)?|[0-9]+\.`)
	intValue  = regexp.MustCompile(`(?m)^( *[0-9]+ *)+$`)
)

// rates masks the numbers of value lines but keeps the layout: each run
// of digits becomes as many 9s, so column widths still compare.
func rates(s string) string {
	s = rateValue.ReplaceAllStringFunc(s, func(m string) string { return strings.Repeat("9", len(m)) })
	return intValue.ReplaceAllStringFunc(s, func(m string) string {
		return regexp.MustCompile(`[0-9]`).ReplaceAllString(m, "9")
	})
}

// anyRate masks a utilisation whose size, and so printreal's layout,
// depends on how late each program's fetch ran on a loaded machine: every
// value line becomes its time column and "N".
func anyRate(s string) string {
	return utilLine.ReplaceAllString(rates(s), "$1 N")
}

var utilLine = regexp.MustCompile(`(?m)^(\S*)\s+[0-9.E+-]+\s*$`)

// events masks record timestamps and parameter values of event records.
func events(s string) string {
	return clitest.Numbers(clitest.Times(s))
}

var hexBytes = regexp.MustCompile(`\[[0-9a-f]+\]`)

// aggregate masks the bytes of aggregate values.
func aggregate(s string) string { return hexBytes.ReplaceAllString(s, "[HEX]") }

// TestAgainstPCP compares pmval with PCP's on one pmcd with PCP's sample
// agent, and on local contexts with PCP's sample DSO against ours.
func TestAgainstPCP(t *testing.T) {
	bed := testbed.StartPMCD(t, testbed.Options{Env: []string{"PCP_DERIVED_CONFIG="}})
	// "unreachable host": a private port reserved to the test's end, which
	// nothing listens on (no other test run is handed it meanwhile).
	nowhere := "localhost:" + strconv.Itoa(testbed.ReservedPort(t))
	t.Setenv("PCP_DERIVED_CONFIG", "")
	local := []string{"-L", "-K", "clear", "-K", sampleDSO, "-n", sampleRoot}
	with := func(extra ...string) []string { return append(append([]string{}, local...), extra...) }
	fast := []string{"-t", "0.05"}
	args := func(a ...string) []string { return append(append([]string{}, fast...), a...) }
	clitest.Compare(t, "pmval", run, bed, []clitest.Case{
		{Name: "singular", Args: args("-s", "2", "sample.long.one")},
		{Name: "indom", Args: args("-s", "3", "sample.colour"), Mask: rates},
		{Name: "bin", Args: args("-s", "2", "sample.bin")},
		{Name: "instances option", Args: args("-s", "2", "-i", "bin-300,bin-100", "sample.bin")},
		{Name: "instances quoted", Args: args("-s", "1", "-i", `"bin-200" 'bin-400'`, "sample.bin")},
		{Name: "instances in spec", Args: args("-s", "2", "sample.bin[bin-500,bin-900]")},
		{Name: "bad instance", Args: args("-s", "2", "-i", "nosuch", "sample.bin")},
		{Name: "instance of singular", Args: args("-s", "1", "sample.long.one[x]")},
		{Name: "float", Args: args("-s", "2", "sample.float.ten", "-w", "15")},
		{Name: "double", Args: args("-s", "2", "sample.double.million")},
		{Name: "double fixed", Args: args("-s", "2", "-f", "3", "sample.double.ten")},
		{Name: "fixed too large", Args: args("-s", "2", "-f", "20", "sample.double.ten")},
		{Name: "string", Args: args("-s", "2", "sample.string.hullo")},
		{Name: "string narrow", Args: args("-s", "1", "-w", "4", "sample.string.hullo")},
		{Name: "longlong", Args: args("-s", "2", "sample.longlong.million")},
		{Name: "u64 width", Args: args("-s", "2", "-w", "30", "sample.ulonglong.hundred")},
		{Name: "aggregate", Args: args("-s", "2", "sample.sysinfo"), Mask: aggregate},
		// sample.pdu counts every PDU the agent sees, so its rate, and with
		// it printreal's layout, depends on the load (one column apart once).
		{Name: "counter rate", Args: args("-s", "3", "sample.pdu"), Mask: anyRate},
		{Name: "counter raw", Args: args("-s", "2", "-r", "sample.const_rate.value"), Mask: rates},
		{Name: "counter time utilization", Args: args("-s", "2", "sample.seconds"), Mask: anyRate},
		{Name: "counter indom rate", Args: args("-s", "2", "sample.bin_ctr"), Mask: rates},
		{Name: "counter rate fixed", Args: args("-s", "2", "-f", "1", "sample.bin_ctr"), Mask: rates},
		{Name: "wide labels", Args: args("-s", "1", "-w", "3", "sample.colour"), Mask: rates},
		{Name: "narrow labels", Args: args("-s", "1", "-w", "5", "sample.colour"), Mask: rates},
		{Name: "no values", Args: args("-s", "2", "sample.noinst")},
		{Name: "needs profile", Args: args("-s", "1", "sample.needprofile")},
		{Name: "bad fetch", Args: args("-s", "2", "sample.bad.unknown")},
		{Name: "not supported", Args: args("-s", "1", "sample.bad.nosupp")},
		{Name: "discrete", Args: args("-s", "1", "sample.dupnames.two.write_me")},
		{Name: "zero samples", Args: args("-s", "0", "sample.long.one")},
		{Name: "one sample", Args: args("-s", "1", "sample.long.ten")},
		{Name: "timezone", Args: args("-s", "1", "-Z", "UTC", "sample.long.one")},
		{Name: "hostzone", Args: args("-s", "1", "-z", "sample.long.one")},
		{Name: "interval words", Args: []string{"-s", "2", "-t", "20 msec", "sample.long.one"}},
		{Name: "long options", Args: []string{"--samples=2", "--interval=0.02", "--width=6", "sample.long.hundred"}},
		{Name: "filter", Args: args("-s", "1", "-x", "42", "sample.long.write_me"),
			Reset: [][]string{{"pmstore", "sample.long.write_me", "13"}}},
		{Name: "filter instances", Args: args("-s", "1", "-x", "7", "-i", "red", "sample.colour"), Mask: rates},
		{Name: "filter bad", Args: args("-s", "1", "-x", "abc", "sample.long.write_me")},
		{Name: "filter range", Args: args("-s", "1", "-x", "99999999999", "sample.long.write_me")},
		{Name: "events", Fresh: true, Args: args("-s", "2", "sample.event.records"), Mask: events},
		{Name: "events highres", Fresh: true, Args: args("-s", "1", "sample.event.highres_records"), Mask: events},
		{Name: "events no indom", Fresh: true, Args: args("-s", "2", "-v", "sample.event.no_indom_records"), Mask: events},
		{Name: "scrambled instances", Args: args("-s", "4", "sample.scramble.bin"), Mask: rates, Fresh: true},
		{Name: "dynamic indom", Args: args("-s", "2", "sample.dynamic.counter"), Mask: rates},
		{Name: "dynamic discrete", Args: args("-s", "2", "sample.dynamic.discrete")},
		{Name: "events filter", Args: args("-s", "1", "-x", "fungus", "sample.event.records"), Mask: events, Fresh: true},
		{Name: "string wide", Args: args("-s", "1", "-w", "40", "sample.string.hullo")},
		{Name: "ulong counter raw wide", Args: args("-s", "2", "-r", "-w", "4", "sample.ulong.count.base")},
		{Name: "unknown metric", Args: args("-s", "1", "no.such.metric")},
		{Name: "non-leaf", Args: args("-s", "1", "sample.long")},
		{Name: "no metric", Args: nil},
		{Name: "two metrics", Args: []string{"a", "b"}},
		{Name: "bad spec", Args: []string{"sample.bin[bin-100"}},
		{Name: "bad spec comma", Args: []string{"a,b"}},
		{Name: "bad spec extra", Args: []string{"m[x] y"}},
		{Name: "bad interval", Args: []string{"-t", "1x", "sample.long.one"}},
		{Name: "bad width", Args: []string{"-w", "0", "sample.long.one"}},
		{Name: "bad precision", Args: []string{"-f", "x", "sample.long.one"}},
		{Name: "bad samples", Args: []string{"-s", "-3", "sample.long.one"}},
		// A live -T ends the run at a fetch whose time is past the
		// window's end: the windows end most of an interval after the
		// last sample that fits, so that a slow fetch on a loaded machine
		// still lands inside (with 0.25 and 0.1 s, 50 ms late lost it).
		{Name: "finish offset", Args: []string{"-T", "1.9", "-t", "1", "sample.long.one"}},
		{Name: "finish plus offset", Args: []string{"-T", "+1.9sec", "-t", "1", "sample.long.ten"}},
		// -T ends a run that -s would have made longer
		{Name: "finish before samples", Args: []string{"-s", "100", "-T", "1.9", "-t", "1", "sample.long.one"}},
		{Name: "empty instance list", Args: args("-s", "2", "-i", "", "sample.colour")},
		{Name: "instance list of separators", Args: args("-s", "1", "-i", ", ,", "sample.colour")},
		{Name: "delay live", Args: []string{"-d", "sample.long.one"}},
		{Name: "time window live", Args: []string{"-S", "@10:00", "sample.long.one"}},
		{Name: "version", Args: []string{"-V"}, NoHost: true},
		{Name: "help", Args: []string{"--help"}, NoHost: true},
		{Name: "bad option", Args: []string{"-y", "x"}, NoHost: true},
		{Name: "host in spec", Args: []string{"-s", "1", nowhere + ":sample.long.one"}, NoHost: true},
		{Name: "unreachable host", Args: []string{"-h", nowhere, "sample.long.one"}, NoHost: true},
		{Name: "bad host spec", Args: []string{"-h", "foo:bar:", "sample.long.one"}, NoHost: true},
		// No -h: both reach the bed through its environment.
		{Name: "default source", Args: []string{"-s", "1", "-t", "0.01", "sample.long.one"}, NoHost: true},
		{Name: "local", Args: with(args("-s", "2", "sample.long.one")...), NoHost: true},
		{Name: "local indom", Args: with(args("-s", "2", "sample.colour")...), NoHost: true, Mask: rates},
		{Name: "local spec", Args: append([]string{"-K", "clear", "-K", sampleDSO, "-n", sampleRoot, "-t", "0.05", "-s", "1"}, "@:sample.bin[bin-100]"), NoHost: true},
		{Name: "local no agent", Args: []string{"-L", "-K", "clear", "-n", sampleRoot, "-s", "1", "sample.long.one"}, NoHost: true},
		{Name: "local rate", Args: with(args("-s", "2", "sample.bin_ctr")...), NoHost: true, Mask: rates},
	})
}
