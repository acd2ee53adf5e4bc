package main

import (
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestOptionMixesAgainstPCP runs pmstore and PCP's on option mixes its
// man page allows or refuses: options without their argument, -h with
// -L, the standard options it takes no part in (-a, -Z, -z, -S), long
// forms, empty and odd instance lists, and -- before a negative value.
func TestOptionMixesAgainstPCP(t *testing.T) {
	bed := testbed.StartPMCD(t, testbed.Options{Env: []string{"PCP_DERIVED_CONFIG="}})
	t.Setenv("PCP_DERIVED_CONFIG", "")
	archive := clitest.QAArchive(t, "20180102")
	reset := [][]string{{"pmstore", "sample.long.write_me", "13"}, {"pmstore", "sample.colour", "1"}}
	m, v := "sample.long.write_me", "7"
	cases := []clitest.Case{
		{Name: "h missing", Args: []string{"-h"}, NoHost: true},
		{Name: "i missing", Args: []string{m, v, "-i"}},
		{Name: "n missing", Args: []string{"-n"}},
		{Name: "K missing", Args: []string{"-K"}},
		{Name: "D missing", Args: []string{"-D"}},
		{Name: "host long", Args: []string{"--host=" + bed.Host(), "-F", m, v}, NoHost: true},
		{Name: "host empty", Args: []string{"-h", "", m, v}, NoHost: true},
		{Name: "h and L", Args: []string{"-L", m, v}},
		{Name: "L and h", Args: []string{"-L", "-h", bed.Host(), m, v}, NoHost: true},
		{Name: "K without L", Args: []string{"-K", "clear", "-F", m, v}},
		{Name: "archive", Args: []string{"-a", archive, m, v}, NoHost: true},
		{Name: "archive and host", Args: []string{"-a", archive, m, v}},
		{Name: "zone", Args: []string{"-Z", "UTC", "-F", m, v}},
		{Name: "hostzone", Args: []string{"-z", "-F", m, v}},
		{Name: "start", Args: []string{"-S", "+1", m, v}},
		{Name: "finish", Args: []string{"-T", "+1", m, v}},
		{Name: "origin", Args: []string{"-O", "+1", m, v}},
		{Name: "align", Args: []string{"-A", "1m", m, v}},
		{Name: "interval", Args: []string{"-t", "1", m, v}},
		{Name: "samples", Args: []string{"-s", "1", m, v}},
		{Name: "insts long", Args: []string{"--insts=red", "-F", "sample.colour", "2"}},
		{Name: "insts empty", Args: []string{"-i", "", "-F", "sample.colour", "2"}},
		{Name: "insts comma", Args: []string{"-i", ",", "-F", "sample.colour", "2"}},
		{Name: "insts trailing comma", Args: []string{"-i", "red,", "-F", "sample.colour", "2"}},
		{Name: "insts spaces", Args: []string{"-i", "red blue", "-F", "sample.colour", "2"}},
		{Name: "insts quoted", Args: []string{"-i", `"red"`, "-F", "sample.colour", "2"}},
		{Name: "insts twice", Args: []string{"-i", "red", "-i", "blue", "-F", "sample.colour", "2"}},
		{Name: "fF", Args: []string{"-fF", m, v}},
		{Name: "dashdash negative", Args: []string{"--", m, "-5"}},
		{Name: "debug bad", Args: []string{"-D", "nosuchflag", m, v}},
		{Name: "version long", Args: []string{"--version"}, NoHost: true},
		{Name: "help long", Args: []string{"--help"}, NoHost: true},
		{Name: "fetch long", Args: []string{"--fetch", m, v}},
		{Name: "force long", Args: []string{"--force", m, v}},
		{Name: "unknown long", Args: []string{"--nosuch", m, v}},
		{Name: "ambiguous long", Args: []string{"--f", m, v}},
		{Name: "no args", Args: nil},
		{Name: "metric spec", Args: []string{"sample.colour[red]", "2"}},
		{Name: "derived", Args: []string{"-F", m, v}, Env: []string{"PCP_DERIVED_CONFIG=/nonexistent"}},
	}
	for i := range cases {
		cases[i].Reset = reset
	}
	clitest.Compare(t, "pmstore", run, bed, cases)
}
