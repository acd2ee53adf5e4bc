package all

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/godeps"
)

// TestNoInitWork checks that the packages linked into a tool only for
// its local contexts (the agents and the libraries only they bring) run
// nothing when the tool starts, agents/all's registrations aside. The
// kernel maps a program's file 64 KB around each page it first touches,
// so an init function of one of them runs code, and reads data, in pages
// that no replay ever needs: each cost pmval and pminfo a window of
// resident pages (docs/bench.md). The test binary, which links this
// package, is run again with GODEBUG=inittrace=1, which names each
// package whose initialisation runs.
func TestNoInitWork(t *testing.T) {
	if os.Getenv("GOPCP_INITTRACE_CHILD") == "1" {
		return
	}
	agentsOnly := map[string]bool{}
	for _, p := range godeps.Of(t, ".") {
		agentsOnly[p] = true
	}
	// What every tool with -L links anyway: the options and the local
	// context.
	for _, p := range godeps.Of(t, "../../internal/cli") {
		delete(agentsOnly, p)
	}
	delete(agentsOnly, "github.com/gopcp/gopcp/agents/all")
	if !agentsOnly["github.com/gopcp/gopcp/agents/linux"] {
		t.Fatalf("agents/linux is not among the packages only the agents link: %v", agentsOnly)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestNoInitWork$", "-test.count=1")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1", "GOPCP_INITTRACE_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var ran []string
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == "init" && agentsOnly[f[1]] {
			ran = append(ran, line)
		}
	}
	if !slices.ContainsFunc(strings.Split(string(out), "\n"), func(l string) bool { return strings.HasPrefix(l, "init ") }) {
		t.Fatalf("no inittrace lines in the child's output:\n%s", out)
	}
	if len(ran) > 0 {
		t.Errorf("%d package(s) linked only for local contexts run initialisation:\n%s", len(ran), strings.Join(ran, "\n"))
	}
}
