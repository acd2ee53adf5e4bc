package pmcd

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pmns"
)

// startWithConf serves tree with the agents of conf until the test ends.
func startWithConf(t *testing.T, tree *pmns.Tree, conf string, timeout time.Duration) string {
	t.Helper()
	c, err := ParseConf(strings.NewReader(conf), "test")
	if err != nil {
		t.Fatal(err)
	}
	return serveOn(t, &Server{PMNS: tree, Conf: c, AgentTimeout: timeout, AgentStderr: os.Stderr})
}

// serveOn runs srv on a loopback port until the test ends, then closes it.
// It returns once srv's agents have started, as cmd/pmcd starts them
// before it serves: a client dialling earlier would wait for every
// agent's start inside its own handshake deadline, which a loaded machine
// starting race-built agent processes can outlast.
func serveOn(t testing.TB, srv *Server) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if srv.PMNS != nil {
		srv.Start(ctx)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, l) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
		srv.Close()
	})
	return "localhost:" + strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

// sampleMetrics are sample agent metrics whose answers do not change
// from one fetch or one agent process to the next. The dynamic subtree
// sample.secret is listed name by name: its foo.bar.max.redirect is
// pmcd.agent.status (domain 2), which only PCP's pmcd serves.
const sampleMetrics = "sample.long sample.ulong sample.double sample.string.hullo " +
	"sample.colour sample.bin sample.aggregate.hullo sample.secret.bar sample.secret.foo.one " +
	"sample.secret.foo.two sample.secret.foo.bar.three sample.secret.foo.bar.grunt"

// TestSampleUnderOurs runs PCP's pmdasample as a pipe agent under our
// pmcd and under PCP's, and wants PCP's tools to print the same against
// both.
func TestSampleUnderOurs(t *testing.T) {
	t.Parallel()
	// sample.colour counts its fetches, so each pair of agents starts
	// afresh: PCP's pmcd and ours then fetch it equally often.
	for _, ipc := range []string{"pipe", "socket"} {
		t.Run(ipc, func(t *testing.T) {
			bed := testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(), testbed.SampleAgent()}})
			tree, err := pmns.Load(filepath.Join(bed.Dir(), "pmns", "root"))
			if err != nil {
				t.Fatal(err)
			}
			agentBin := filepath.Join(bed.Install().Var("PCP_PMDAS_DIR"), "sample", "pmdasample")
			env, err := exec.LookPath("env")
			if err != nil {
				t.Fatal(err)
			}
			logFile := filepath.Join(t.TempDir(), "sample.log")
			command := env + " PCP_PMDAS_DIR=" + filepath.Join(bed.Dir(), "pmdas") + " " + agentBin + " -d 29 -l " + logFile
			conf := "# the sample agent on a pipe\nsample\t29\tpipe\tbinary\t" + command + "\n"
			if ipc == "socket" {
				port := freePort(t)
				conf = "sample 29 socket inet " + port + " " + command + " -i " + port + "\n"
			}
			compareSample(t, bed, startWithConf(t, tree, conf, 0))
		})
	}
}

// freePort is one of testbed's private ports, nothing listening on it,
// held until the test ends (see freeTracePort for why not ":0").
func freePort(t *testing.T) string {
	t.Helper()
	port, release, err := testbed.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	return strconv.Itoa(port)
}

// compareSample runs PCP's tools against PCP's pmcd and against ours.
func compareSample(t *testing.T, bed *testbed.PMCD, ours string) {
	in := bed.Install()
	var err error

	tools := map[string]string{}
	for _, name := range []string{"pminfo", "pmprobe", "pmstore"} {
		if tools[name], err = in.Tool(name); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct{ tool, args string }{
		{"pminfo", "sample"},
		{"pminfo", "-m " + sampleMetrics},
		{"pminfo", "-M " + sampleMetrics},
		{"pminfo", "-d " + sampleMetrics},
		{"pminfo", "-f " + sampleMetrics},
		{"pminfo", "-t " + sampleMetrics},
		{"pminfo", "-T " + sampleMetrics},
		{"pminfo", "-dfmtT sample.secret.bar sample.secret.foo.one"},
		{"pminfo", "-f sample.colour sample.nosuch sample.long.one"},
		{"pminfo", "-x sample.colour"},
		{"pminfo", "-F sample.colour sample.bin"},
		{"pminfo", "-I sample.colour"},
		{"pminfo", "-l " + sampleMetrics},
		{"pminfo", "-l sample.long.one"},
		{"pmprobe", "-v -I " + sampleMetrics},
		{"pmprobe", "-v sample.colour sample.long.one sample.nosuch"},
		{"pmstore", "sample.write_me 42"},
		{"pminfo", "-f sample.write_me"},
		{"pmstore", "sample.write_me 2"},
		{"pmstore", "sample.long.one 3"},
		{"pmstore", "sample.nosuch 3"},
	}
	for _, c := range cases {
		t.Run(c.tool+" "+c.args, func(t *testing.T) {
			want := runTool(t, tools[c.tool], bed.Host(), c.args)
			got := runTool(t, tools[c.tool], ours, c.args)
			if got != want {
				t.Errorf("%s -h HOST %s: %s", c.tool, c.args, firstDiff(want, got))
			}
		})
	}
}

// firstDiff shows where two outputs part, a few lines either side.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	lo := max(0, i-3)
	return fmt.Sprintf("from line %d\n--- PCP's pmcd ---\n%s\n--- ours ---\n%s",
		i+1, strings.Join(w[lo:min(len(w), i+6)], "\n"), strings.Join(g[lo:min(len(g), i+6)], "\n"))
}
