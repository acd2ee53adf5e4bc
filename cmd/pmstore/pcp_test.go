package main

import (
	"slices"
	"strconv"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

const (
	sampleDSO  = "add,29,/var/lib/pcp/pmdas/sample/pmda_sample.so,sample_init"
	sampleRoot = "/var/lib/pcp/pmdas/sample/root"
)

// TestAgainstPCP compares pmstore with PCP's on one pmcd with PCP's sample
// agent. Stores change the agent's state, so each case first puts the
// metrics it touches back as they were.
func TestAgainstPCP(t *testing.T) {
	bed := testbed.StartPMCD(t, testbed.Options{Env: []string{"PCP_DERIVED_CONFIG="}})
	// "unreachable host": a private port reserved to the test's end, which
	// nothing listens on (no other test run is handed it meanwhile).
	nowhere := "localhost:" + strconv.Itoa(testbed.ReservedPort(t))
	t.Setenv("PCP_DERIVED_CONFIG", "")
	refused := testbed.StartPMCD(t, testbed.Options{Access: `disallow ".*" : store;`})
	reset := [][]string{
		{"pmstore", "sample.long.write_me", "13"},
		{"pmstore", "sample.ulong.write_me", "13"},
		{"pmstore", "sample.longlong.write_me", "13"},
		{"pmstore", "sample.ulonglong.write_me", "13"},
		{"pmstore", "sample.float.write_me", "13"},
		{"pmstore", "sample.double.write_me", "13"},
		{"pmstore", "sample.string.write_me", "13"},
		{"pmstore", "sample.colour", "1"},
		{"pmstore", "sample.mirage", "0"},
		{"pmstore", "sample.dodgey.control", "0"},
	}
	local := []string{"-L", "-K", "clear", "-K", sampleDSO, "-n", sampleRoot}
	cases := []clitest.Case{
		{Name: "long", Args: []string{"sample.long.write_me", "42"}},
		{Name: "long negative", Args: []string{"sample.long.write_me", "-42"}},
		{Name: "long hex", Args: []string{"sample.long.write_me", "0x20"}},
		{Name: "long fetch", Args: []string{"-F", "sample.long.write_me", "7"}},
		{Name: "ulong", Args: []string{"sample.ulong.write_me", "4294967295"}},
		{Name: "ulong range", Args: []string{"sample.ulong.write_me", "4294967296"}},
		{Name: "long range", Args: []string{"sample.long.write_me", "2147483648"}},
		{Name: "longlong", Args: []string{"sample.longlong.write_me", "-9223372036854775808"}},
		{Name: "ulonglong", Args: []string{"-F", "sample.ulonglong.write_me", "18446744073709551615"}},
		{Name: "float", Args: []string{"sample.float.write_me", "1.5"}},
		{Name: "float zero", Args: []string{"sample.float.write_me", "0"}},
		{Name: "double", Args: []string{"-F", "sample.double.write_me", "3.25e10"}},
		{Name: "string", Args: []string{"sample.string.write_me", "hello world"}},
		{Name: "string fetch", Args: []string{"-F", "sample.string.write_me", ""}},
		{Name: "incompatible", Args: []string{"sample.long.write_me", "abc"}},
		{Name: "incompatible float", Args: []string{"sample.double.write_me", "1.2.3"}},
		{Name: "instances", Args: []string{"-i", "red,blue", "sample.colour", "5"}},
		{Name: "instances fetch", Args: []string{"-F", "-i", "green", "sample.colour", "9"}},
		{Name: "all instances", Args: []string{"sample.colour", "3"}},
		{Name: "bad instance", Args: []string{"-i", "purple", "sample.colour", "5"}},
		{Name: "instance on singular", Args: []string{"-i", "red", "sample.long.write_me", "5"}},
		{Name: "read only", Args: []string{"sample.long.one", "5"}},
		{Name: "unknown metric", Args: []string{"no.such.metric", "5"}},
		{Name: "non-leaf", Args: []string{"sample.long", "5"}},
		{Name: "aggregate", Args: []string{"sample.aggregate.write_me", "5"}},
		{Name: "event", Args: []string{"sample.event.records", "5"}},
		{Name: "no values", Args: []string{"sample.noinst", "5"}},
		{Name: "no values forced", Args: []string{"-f", "sample.noinst", "5"}},
		{Name: "mirage", Args: []string{"-F", "sample.mirage", "3"}},
		{Name: "agent error", Args: []string{"sample.bad.unknown", "5"}},
		{Name: "negative looks like option", Args: []string{"sample.long.write_me", "-5"}},
		{Name: "posix order", Args: []string{"sample.long.write_me", "-F", "5"}},
		{Name: "too few", Args: []string{"sample.long.write_me"}},
		{Name: "too many", Args: []string{"sample.long.write_me", "1", "2"}},
		{Name: "version", Args: []string{"-V"}, NoHost: true},
		{Name: "help", Args: []string{"-?"}, NoHost: true},
		{Name: "bad option", Args: []string{"-y", "a", "b"}, NoHost: true},
		{Name: "unreachable host", Args: []string{"-h", nowhere, "sample.long.write_me", "1"}, NoHost: true},
		{Name: "bad host spec", Args: []string{"-h", "foo:bar:", "sample.long.write_me", "1"}, NoHost: true},
		{Name: "namespace", Args: []string{"-n", sampleRoot, "-F", "sample.long.write_me", "8"}},
		{Name: "namespace unknown", Args: []string{"-n", sampleRoot, "sampledso.long.write_me", "8"}},
		{Name: "local", Args: append(append([]string{}, local...), "-F", "sample.long.write_me", "21"), NoHost: true},
		{Name: "local instances", Args: append(append([]string{}, local...), "-i", "red", "sample.colour", "21"), NoHost: true},
		{Name: "local no agent", Args: []string{"-L", "-K", "clear", "-n", sampleRoot, "sample.long.write_me", "21"}, NoHost: true},
		{Name: "local bad spec", Args: []string{"-L", "-K", "del", "sample.long.write_me", "21"}, NoHost: true},
		// value forms strtol, strtoll, strtoul and strtod take or refuse
		{Name: "long plus", Args: []string{"-F", "sample.long.write_me", "+5"}},
		{Name: "long octal", Args: []string{"-F", "sample.long.write_me", "0777"}},
		{Name: "long spaces", Args: []string{"-F", "sample.long.write_me", " 12"}},
		{Name: "long trailing", Args: []string{"-F", "sample.long.write_me", "12 "}},
		{Name: "long hex empty", Args: []string{"-F", "sample.long.write_me", "0x"}},
		{Name: "long exponent", Args: []string{"-F", "sample.long.write_me", "1e3"}},
		{Name: "long empty", Args: []string{"-F", "sample.long.write_me", ""}},
		{Name: "ulong negative", Args: []string{"-F", "sample.ulong.write_me", "-1"}},
		{Name: "ulonglong negative", Args: []string{"-F", "sample.ulonglong.write_me", "-1"}},
		{Name: "longlong range", Args: []string{"-F", "sample.longlong.write_me", "9223372036854775808"}},
		{Name: "float inf", Args: []string{"-F", "sample.float.write_me", "inf"}},
		{Name: "float huge", Args: []string{"-F", "sample.float.write_me", "1e39"}},
		{Name: "double nan", Args: []string{"-F", "sample.double.write_me", "nan"}},
		{Name: "double hex", Args: []string{"-F", "sample.double.write_me", "0x1p4"}},
		{Name: "double negative nan", Args: []string{"-F", "sample.double.write_me", "-nan"}},
		{Name: "double nan payload", Args: []string{"-F", "sample.double.write_me", "nan(123)"}},
		{Name: "double nan unclosed", Args: []string{"-F", "sample.double.write_me", "nan("}},
		{Name: "float negative nan", Args: []string{"-F", "sample.float.write_me", "-NaN"}},
		{Name: "instances empty", Args: []string{"-i", "", "sample.colour", "5"}},
		{Name: "instances spaces", Args: []string{"-F", "-i", "red blue", "sample.colour", "6"}},
		{Name: "instances repeated", Args: []string{"-F", "-i", "red,red", "sample.colour", "7"}},
	}
	for i := range cases {
		if cases[i].NoHost {
			continue
		}
		for _, r := range reset {
			if slices.Contains(cases[i].Args, r[1]) {
				cases[i].Reset = append(cases[i].Reset, r)
			}
		}
	}
	clitest.Compare(t, "pmstore", run, bed, cases)
	clitest.Compare(t, "pmstore", run, refused, []clitest.Case{
		{Name: "refused store", Args: []string{"sample.long.write_me", "5"}},
	})
}
