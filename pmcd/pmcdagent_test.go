package pmcd_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestPMCDAgentLikePCP compares pmcd's own agent with PCP's: every
// pmcd.* name with its PMID, type, instance domain, semantics and units
// (pminfo -d -m), the instances of the fixed and configured instance
// domains, and the values that do not depend on the daemon's history.
func TestPMCDAgentLikePCP(t *testing.T) {
	t.Parallel()
	opts := testbed.Options{}
	ref := testbed.StartPMCD(t, opts)
	ours := testbed.StartGoPMCD(t, opts)

	desc := func(bed *testbed.PMCD) string {
		res := bed.Run("pminfo", "-h", bed.Host(), "-d", "-m", "pmcd")
		if res.Err != nil {
			t.Fatal(res.Err)
		}
		return res.Stdout
	}
	if got, want := desc(ours), desc(ref); got != want {
		t.Errorf("pminfo -d -m pmcd differs:\n%s", diffLines(got, want))
	}

	// Values that are the same for any pmcd on this host with the same
	// pmcd.conf.
	same := []string{"pmcd.numagents", "pmcd.control.timeout", "pmcd.timezone", "pmcd.zoneinfo",
		"pmcd.simabi", "pmcd.version", "pmcd.build", "pmcd.hostname", "pmcd.control.register",
		"pmcd.control.debug", "pmcd.control.tracebufs", "pmcd.control.sighup",
		"pmcd.agent.type", "pmcd.agent.status", "pmcd.agent.fenced", "pmcd.agent.name",
		"pmcd.pmlogger.port", "pmcd.pmie.numrules", "pmcd.buf.alloc", "pmcd.sighups",
		"pmcd.feature.secure", "pmcd.feature.compress", "pmcd.feature.ipv6",
		"pmcd.feature.authentication", "pmcd.feature.creds_required",
		"pmcd.feature.unix_domain_sockets", "pmcd.feature.containers",
		"pmcd.feature.local", "pmcd.feature.client_cert_required", "pmcd.numclients", "pmcd.labels",
		// Agents started, counted from PCP's 1.
		"pmcd.seqnum"}
	fetch := func(bed *testbed.PMCD) string {
		res := bed.Run("pminfo", append([]string{"-h", bed.Host(), "-f"}, same...)...)
		if res.Err != nil {
			t.Fatal(res.Err)
		}
		return res.Stdout
	}
	if got, want := fetch(ours), fetch(ref); got != want {
		t.Errorf("pminfo -f differs:\n%s", diffLines(got, want))
	}

	// Values from our pmcd's own state.
	res := ours.Run("pminfo", "-h", ours.Host(), "-f", "pmcd.pid", "pmcd.pdu_in.total", "pmcd.pdu_out.total",
		"pmcd.client.start_date", "pmcd.cputime.total", "pmcd.services", "pmcd.openfds")
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	for _, want := range []string{
		`pmcd.pid\n    value ` + itoa(ours.PID()) + `\n`,
		`pmcd.pdu_in.total\n    value [1-9]\d*\n`,
		`pmcd.pdu_out.total\n    value [1-9]\d*\n`,
		`pmcd.client.start_date\n    inst \[\d+ or "\d+"\] value "\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4}"\n`,
		`pmcd.services\n    value "pmcd`,
	} {
		if !regexp.MustCompile(want).MatchString(res.Stdout) {
			t.Errorf("no match for %s in:\n%s", want, res.Stdout)
		}
	}
}

// TestPMCDAgentStores checks the stores pmcd's agent takes, with PCP's
// pmstore: a register, the agent timeout and a client's whoami.
func TestPMCDAgentStores(t *testing.T) {
	t.Parallel()
	for _, start := range []func(testing.TB, testbed.Options) *testbed.PMCD{testbed.StartPMCD, testbed.StartGoPMCD} {
		bed := start(t, testbed.Options{})
		for _, args := range [][]string{
			{"-i", "3", "pmcd.control.register", "42"},
			{"pmcd.control.timeout", "7"},
		} {
			if res := bed.Run("pmstore", append([]string{"-h", bed.Host()}, args...)...); res.Err != nil {
				t.Fatalf("go=%v: %v", bed.IsGo(), res.Err)
			}
		}
		res := bed.Run("pminfo", "-h", bed.Host(), "-f", "pmcd.control.register", "pmcd.control.timeout")
		if !strings.Contains(res.Stdout, `inst [3 or "3"] value 42`) || !strings.Contains(res.Stdout, "pmcd.control.timeout\n    value 7") {
			t.Errorf("go=%v: after stores:\n%s", bed.IsGo(), res.Stdout)
		}
		res = bed.Run("pmstore", "-h", bed.Host(), "pmcd.numagents", "3")
		if res.Err == nil {
			t.Errorf("go=%v: store into pmcd.numagents allowed", bed.IsGo())
		}
		// A store into pmcd.control.sighup reconfigures as SIGHUP does.
		if res := bed.Run("pmstore", "-h", bed.Host(), "pmcd.control.sighup", "1"); res.Err != nil {
			t.Fatalf("go=%v: %v", bed.IsGo(), res.Err)
		}
		eventually(t, "pmcd.sighups after the store", func() (bool, string) {
			res := bed.Run("pminfo", "-h", bed.Host(), "-f", "pmcd.sighups")
			return strings.Contains(res.Stdout, "value 1\n"), res.Stdout
		})
	}
}

// diffLines shows the lines of got and want that differ.
func diffLines(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	var b strings.Builder
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			b.WriteString("ours: " + gl + "\nPCP:  " + wl + "\n")
		}
	}
	return b.String()
}

// TestFencingLikePCP fences the sample agent off through
// pmcd.agent.fenced, as root over the Unix socket, and compares what
// PCP's pminfo gets from both daemons; a TCP client may not fence.
func TestFencingLikePCP(t *testing.T) {
	t.Parallel()
	outs := compareAtEnd(t)
	for _, b := range bedStarters {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			bed := b.start(t, testbed.Options{})
			unix := "unix:" + bed.SocketPath()
			var all string
			for _, step := range [][]string{
				{"pmstore", "-h", bed.Host(), "-i", "sample", "pmcd.agent.fenced", "1"},
				{"pmstore", "-h", unix, "-i", "sample", "pmcd.agent.fenced", "1"},
				{"pminfo", "-h", bed.Host(), "-f", "sample.long.one", "pmcd.agent.fenced", "pmcd.version"},
				{"pmstore", "-h", unix, "-i", "sample", "pmcd.agent.fenced", "2"},
				{"pmstore", "-h", unix, "pmcd.control.timeout", "-1"},
				{"pmstore", "-h", unix, "pmcd.control.traceconn", "3"},
				{"pmstore", "-h", unix, "-i", "sample", "pmcd.agent.fenced", "0"},
				{"pminfo", "-h", bed.Host(), "-f", "sample.long.one", "pmcd.agent.fenced"},
			} {
				res := bed.Run(step[0], step[1:]...)
				out := strings.ReplaceAll(res.Stdout+res.Stderr, bed.Host(), "HOST")
				all += strings.ReplaceAll(out, unix, "UNIX") + "---\n"
			}
			outs.record(b.name, "fencing", all)
		})
	}
}
