package pmda_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// twinPMNS names the metrics internal/sampletwin serves, with the PMIDs
// PCP's sample agent gives them, plus one (bad.unknown) it does not serve.
const twinPMNS = `root {
	sample
}
sample {
	long
	ulong
	longlong
	ulonglong
	float
	double
	string
	aggregate
	bin	29:0:6
	noinst	29:0:9
	bad
}
sample.long { one 29:0:10 }
sample.ulong { hundred 29:0:95 }
sample.longlong { million 29:0:23 }
sample.ulonglong { ten 29:0:99 }
sample.float { one 29:0:15 }
sample.double { ten 29:0:26 }
sample.string { hullo 29:0:31 }
sample.aggregate { hullo 29:0:34 }
sample.bad {
	unknown	29:0:54
	nosupport	29:0:55
	novalues	29:0:138
}
`

// TestAgainstPCPSample serves some of the sample agent's metrics with this
// package (internal/sampletwin) under PCP's pmcd, and checks that PCP's
// tools print exactly what they print for PCP's own sample agent:
// descriptors, values of every type, instances, labels of every level,
// missing values, unsupported and unknown metrics, refused stores.
func TestAgainstPCPSample(t *testing.T) {
	testbed.Need(t)
	dir := t.TempDir()
	twin := pcptest.GoCommand(t, "./internal/sampletwin")
	pmns := filepath.Join(dir, "root_sample")
	if err := os.WriteFile(pmns, []byte(twinPMNS), 0o644); err != nil {
		t.Fatal(err)
	}
	ours := testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{
		testbed.PMCDAgent(), testbed.PipeAgent("sample", 29, pmns, twin),
	}})
	theirs := testbed.StartPMCD(t, testbed.Options{})

	names := []string{
		"sample.long.one", "sample.ulong.hundred", "sample.longlong.million",
		"sample.ulonglong.ten", "sample.float.one", "sample.double.ten",
		"sample.string.hullo", "sample.aggregate.hullo", "sample.bin",
		"sample.noinst", "sample.bad.novalues", "sample.bad.nosupport",
		"sample.bad.unknown",
	}
	cases := []struct {
		tool string
		args []string
	}{
		{"pminfo", append([]string{"-dfml"}, names...)},
		{"pminfo", append([]string{"-I", "-f"}, names...)},
		{"pmprobe", append([]string{"-v", "-I"}, names...)},
		{"pmval", []string{"-s", "1", "-i", "bin-300,bin-700", "sample.bin"}},
		{"pmval", []string{"-s", "1", "sample.string.hullo"}},
		{"pmstore", []string{"sample.long.one", "3"}},
		{"pmstore", []string{"sample.bad.unknown", "3"}},
	}
	for _, c := range cases {
		run := func(bed *testbed.PMCD) string {
			r := bed.Run(c.tool, append([]string{"-h", bed.Host()}, c.args...)...)
			return r.Stdout + r.Stderr
		}
		got, want := run(ours), run(theirs)
		if got != want {
			t.Errorf("%s %v:\nours:\n%s\nPCP's sample agent:\n%s", c.tool, c.args, got, want)
		}
	}
}
