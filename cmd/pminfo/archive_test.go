package main

import (
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestArchivesAgainstPCP compares pminfo -a with PCP's pminfo on QA
// archives: names, descriptors, values from the window's origin, help
// text (present, absent, falling back to the one-line text), labels,
// instances and time zones. The anonymous event metrics' help text is
// our own, so it is masked.
func TestArchivesAgainstPCP(t *testing.T) {
	qa := func(name string) string { return clitest.QAArchive(t, name) }
	var cases []clitest.Case
	for _, name := range []string{"20041125", "omnibus_v3", "omnibus_v2", "interpmark", "dyninsts", "sample-labels", "multi-xz"} {
		for _, opts := range [][]string{nil, {"-d"}, {"-f"}, {"-m"}, {"-M"}, {"-T"}, {"-t", "-d"}, {"-l"}, {"-I"}} {
			cases = append(cases, clitest.Case{
				Name: name + " " + join(opts),
				Args: append([]string{"-a", qa(name)}, opts...),
				Mask: maskAnonHelp,
			})
		}
	}
	a := func(name string, args ...string) []string { return append([]string{"-a", qa(name)}, args...) }
	cases = append(cases,
		clitest.Case{Name: "values later", Args: a("20041125", "-f", "-S", "+30", "swap", "kernel.all.load")},
		clitest.Case{Name: "values at origin", Args: a("dyninsts", "-f", "-O", "+10", "disk.dev")},
		clitest.Case{Name: "values past the last record", Args: a("dyninsts", "-f", "-O", "+1m", "disk.dev.write")},
		clitest.Case{Name: "values from end", Args: a("interpmark", "-f", "-T", "-1m", "-O", "-10", "network.tcpconn")},
		clitest.Case{Name: "host zone", Args: a("omnibus_v3", "-fz", "sample.event.records")},
		clitest.Case{Name: "named zone", Args: a("omnibus_v3", "-f", "-Z", "EST-10", "sample.event.records")},
		clitest.Case{Name: "events unpacked", Args: a("omnibus_v3", "-x", "sample.event")},
		clitest.Case{Name: "bad window", Args: a("omnibus_v3", "-f", "-S", "+nonsense", "sample.colour")},
		clitest.Case{Name: "unknown metric", Args: a("omnibus_v3", "-f", "no.such")},
		clitest.Case{Name: "no archive", Args: []string{"-a", "/nonexistent/archive"}},
		// -n's names trimmed to the archive's, pmTrimNameSpace
		clitest.Case{Name: "namespace trimmed", Args: a("20041125", "-n", "/var/lib/pcp/pmns/root")},
		clitest.Case{Name: "namespace trimmed values", Args: a("omnibus_v3", "-n", "/var/lib/pcp/pmns/root", "-f")},
		clitest.Case{Name: "namespace trimmed leaf", Args: a("omnibus_v3", "-n", "/var/lib/pcp/pmns/root", "kernel.all.load", "pmcd")},
	)
	clitest.CompareLocal(t, "pminfo", run, cases)
}

func join(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += " "
		}
		out += x
	}
	return out
}
