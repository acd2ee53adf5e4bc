package clitest

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// GuideClientCases are the command lines pmclient and pmclient_fg (the
// Programmer's Guide's example clients) are compared with PCP's on: the
// QA archives that hold the report's metrics (and two that lack some)
// with the time window, zone and interval options, and the error paths
// of the options and sources.
func GuideClientCases(t *testing.T) []Case {
	var cases []Case
	for _, a := range []string{"moomba.client", "bozo.client_v2", "omen.client", "20180606", "20180415.09.16",
		"all-irix-6.5.25", "bug1057", "pcp-free-tera", "pcp-pidstat", "20041125"} {
		arch := QAArchive(t, a)
		for _, args := range [][]string{{"-s", "5"}, {"-t", "7.3", "-s", "20"}, {"-z", "-s", "3", "-S", "+100"},
			{"-Z", "UTC+3", "-A", "1m", "-s", "3"}, {"-t", "0.0005", "-s", "2"}, {"-T", "+30", "-s", "0", "-t", "2"},
			{"-O", "+60", "-s", "2"}} {
			cases = append(cases, Case{Name: a + " " + strings.Join(args, " "), Args: append([]string{"-a", arch}, args...)})
		}
	}
	omen := QAArchive(t, "omen.client")
	// a host nothing listens on: a private port reserved to the test's end
	nowhere := "localhost:" + strconv.Itoa(testbed.ReservedPort(t))
	for _, args := range [][]string{{"-?"}, {"-V"}, {"-x"}, {"-K", "foo"}, {"-L"}, {"-P"}, {"-P", "-a", omen, "-s", "2"},
		{"-a", omen, "x", "y"}, {"-a", omen, "x", "-s", "1"}, {"-a", omen, "-h", "localhost"},
		{"-a", "/nonexistent"}, {"-h", nowhere}, {"-a", omen, "-t", "foo"}, {"-a", omen, "-S", "@bogus"},
		{"-a", omen, "-n", "/nonexistent"}, {"-a", omen, "-T", "-1000000"}, {"-a", omen, "-D", "bogus", "-s", "1"},
		{"-a", omen, "-Z", "", "-s", "1"}, {"-a", omen + "," + QAArchive(t, "bozo.client_v2"), "-s", "1"},
		{"-a", omen, "-t", "60"}} {
		// the name stays the same from run to run, whatever the port
		name := strings.ReplaceAll(strings.Join(args, " "), filepath.Dir(omen)+"/", "")
		cases = append(cases, Case{Name: strings.ReplaceAll(name, nowhere, "localhost:NOWHERE"), Args: args})
	}
	return cases
}

var (
	valueLine = regexp.MustCompile(`(?m)^[ 0-9.?-]+$`)
	heading   = regexp.MustCompile(`(?m), [0-9]+ cpu\(s\), .*$`)
)

// GuideClientLive masks, for the Guide's example clients, what changes between two runs on a live host: the values,
// the CPU count (hinv.ncpu of PCP's agent and ours may differ in a
// container) and the time in the heading.
func GuideClientLive(s string) string {
	s = heading.ReplaceAllString(s, ", N cpu(s), DATE")
	return valueLine.ReplaceAllString(s, "VALUES")
}
