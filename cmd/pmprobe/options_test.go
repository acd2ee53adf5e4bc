package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestOptionMixesAgainstPCP runs pmprobe and PCP's on option mixes its
// man page allows or refuses: sources given twice or together (-h, -a,
// -L), options without their argument, bad numbers, -O's forms on an
// archive and a host, -Z and -z each way, options it does not take.
func TestOptionMixesAgainstPCP(t *testing.T) {
	bed := testbed.StartPMCD(t, testbed.Options{Env: []string{"PCP_DERIVED_CONFIG="}})
	t.Setenv("PCP_DERIVED_CONFIG", "")
	a := clitest.QAArchive(t, "20180102")
	m := "kernel.all.load"
	s := "sample.long.one"
	cases := []clitest.Case{
		{Name: "a and h", Args: []string{"-a", a, "-v", m}},
		{Name: "h and a", Args: []string{"-a", a, "-h", "localhost", "-v", m}, NoHost: true},
		{Name: "a twice", Args: []string{"-a", a, "-a", a, "-v", m}, NoHost: true},
		{Name: "h twice", Args: []string{"-h", bed.Host(), "-v", s}},
		{Name: "a and L", Args: []string{"-a", a, "-L", "-v", m}, NoHost: true},
		{Name: "h and L", Args: []string{"-L", "-v", s}},
		{Name: "K without L", Args: []string{"-K", "clear", "-v", s}},
		{Name: "a missing", Args: []string{"-a"}, NoHost: true},
		{Name: "h missing", Args: []string{"-h"}, NoHost: true},
		{Name: "O missing", Args: []string{"-a", a, "-O"}, NoHost: true},
		{Name: "b missing", Args: []string{"-b"}},
		{Name: "b trailing", Args: []string{"-b", "3x", s}},
		{Name: "O plus", Args: []string{"-a", a, "-O", "+30", "-v", m}, NoHost: true},
		{Name: "O minus", Args: []string{"-a", a, "-O", "-30", "-v", m}, NoHost: true},
		{Name: "O at", Args: []string{"-a", a, "-O", "@ Tue Jan  2 01:00:00 2018", "-v", m}, NoHost: true},
		{Name: "O bad", Args: []string{"-a", a, "-O", "@junk", "-v", m}, NoHost: true},
		{Name: "O past end", Args: []string{"-a", a, "-O", "+100d", "-v", m}, NoHost: true},
		{Name: "O host", Args: []string{"-O", "+30", "-v", s}},
		{Name: "Z archive", Args: []string{"-a", a, "-Z", "UTC", "-v", m}, NoHost: true},
		{Name: "z archive", Args: []string{"-a", a, "-z", "-v", m}, NoHost: true},
		{Name: "Z z", Args: []string{"-a", a, "-Z", "UTC", "-z", "-v", m}, NoHost: true},
		{Name: "z Z", Args: []string{"-a", a, "-z", "-Z", "UTC", "-v", m}, NoHost: true},
		{Name: "Z bad", Args: []string{"-a", a, "-Z", "no/such/zone", "-v", m}, NoHost: true},
		{Name: "Z host", Args: []string{"-Z", "UTC", "-v", s}},
		{Name: "z host", Args: []string{"-z", "-v", s}},
		{Name: "S", Args: []string{"-a", a, "-S", "+1", m}, NoHost: true},
		{Name: "T", Args: []string{"-a", a, "-T", "+1", m}, NoHost: true},
		{Name: "A", Args: []string{"-a", a, "-A", "1m", m}, NoHost: true},
		{Name: "t", Args: []string{"-t", "1", s}},
		{Name: "s", Args: []string{"-s", "1", s}},
		{Name: "d", Args: []string{"-d"}},
		{Name: "version", Args: []string{"--version"}, NoHost: true},
		{Name: "e", Args: []string{"-e", s}},
		{Name: "container host", Args: []string{"--container=none", "-v", s}},
		{Name: "container archive", Args: []string{"--container=none", "-a", a, "-v", m}, NoHost: true},
		{Name: "derived bad", Args: []string{"--derived=/nonexistent", "-v", s}},
		{Name: "n missing file", Args: []string{"-n", "/nonexistent", s}},
		{Name: "bad host", Args: []string{"-h", "foo:bar:", s}, NoHost: true},
		{Name: "all values forced", Args: []string{"-f", "-I", "-i", "-v", "sample.colour"}},
		{Name: "values verbose", Args: []string{"-V", "-v", s}},
		{Name: "no metric archive", Args: []string{"-a", a, "-F"}, NoHost: true},
	}
	clitest.Compare(t, "pmprobe", run, bed, cases)

	// PCP's pmprobe loops for ever with a batch of 0 or less (no name
	// fits in one); ours ends, saying why.
	for _, b := range []string{"0", "-3"} {
		var out, errOut bytes.Buffer
		code := run(context.Background(), []string{"pmprobe", "-h", bed.Host(), "-b", b, "-v", s, "sample.colour"}, &out, &errOut)
		want := "pmprobe: cannot look up sample.long.one: no batch of at most " + b + " names holds it\n"
		if code != 1 || out.String() != "" || errOut.String() != want {
			t.Errorf("-b %s: exit %d, stdout %q, stderr %q; want exit 1, stderr %q", b, code, out.String(), errOut.String(), want)
		}
	}
}
