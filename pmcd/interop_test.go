package pmcd

import (
	"context"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pmns"
)

// startOurs serves tree on a loopback port until the test ends.
func startOurs(t *testing.T, tree *pmns.Tree) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	srv := &Server{PMNS: tree}
	go func() { done <- srv.Serve(ctx, l) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return "localhost:" + strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

// TestPCPToolsAgainstSkeleton runs PCP's pminfo against PCP's pmcd and
// against ours, both serving the system namespace with no agent for the
// metrics asked about (PCP's pmcd needs one agent to start, so it has its
// own pmcd agent, domain 2, which the commands stay clear of), and wants
// the same output and exit status from both.
func TestPCPToolsAgainstSkeleton(t *testing.T) {
	t.Parallel()
	root := pmns.DefaultPath(os.Getenv("PMNS_DEFAULT"))
	bed := testbed.StartPMCD(t, testbed.Options{
		Agents: []testbed.Agent{testbed.PMCDAgent()},
		Args:   []string{"-n", root},
	})
	tree, err := pmns.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	ours := startOurs(t, tree)
	pminfo, err := bed.Install().Tool("pminfo")
	if err != nil {
		t.Fatal(err)
	}

	cases := []string{
		"",
		"kernel",
		"kernel.all",
		"disk.dev",
		"mmv",
		"-m kernel.all.load",
		"-m kernel.all.load kernel.all.cpu.user nosuch.metric",
		"-M kernel.all.load hinv.ncpu",
		"-m disk",
		"-m kernel.all.load.extra",
		"-m hinv",
		"-d kernel.all.load",
		"-f kernel.all.load",
		"-f hinv.ncpu mem.physmem",
		"-F kernel.all.load",
		"-t kernel.all",
		"-T kernel.all.load",
		"-T hinv.ncpu",
		"-l kernel.all.load",
		"-x hinv.ncpu",
		"-I kernel.all.load",
		"nosuch",
		"mmv.foo",
		"-f mmv",
		"-m mmv.foo.bar",
		"-c /dev/null kernel.all.load",
		"-s kernel.all.load",
		"-v kernel.all",
	}
	for _, args := range cases {
		t.Run(args, func(t *testing.T) {
			want := runTool(t, pminfo, bed.Host(), args)
			got := runTool(t, pminfo, ours, args)
			if got != want {
				t.Errorf("pminfo -h HOST %s\n--- PCP's pmcd ---\n%s--- ours ---\n%s", args, want, got)
			}
		})
	}
}

func runTool(t *testing.T, tool, host, args string) string {
	t.Helper()
	argv := append([]string{"-h", host}, strings.Fields(args)...)
	cmd := exec.Command(tool, argv...)
	out, err := cmd.CombinedOutput()
	status := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("%s %v: %v", tool, argv, err)
		}
		status = ee.ExitCode()
	}
	// The host appears in some messages; it is the only expected difference.
	s := strings.ReplaceAll(string(out), host, "HOST")
	return s + "exit " + strconv.Itoa(status) + "\n"
}
