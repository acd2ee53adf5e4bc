package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestLocalAgainstPCP asks PCP's tools with PCP's jbd2 shared object in a
// local context (-L) and ours with our jbd2_init, on this host's
// /proc/fs/jbd2 (absent in a container, where every journal metric has
// no value and njournals is 0): the host's pmcd.conf, which has a jbd2
// line where PCP's agent is installed, and an explicit -K table. Only
// answers that cannot move between two runs are compared: value counts,
// descriptors and instance names. Both keep their instance caches in a
// private PCP_VAR_DIR.
func TestLocalAgainstPCP(t *testing.T) {
	in := testbed.Need(t)
	so, pmns := pcpJBD2(t, in, "pmda_jbd2.so")
	varDir, err := testbed.VarDirEnv(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	build := pcptest.Build{Companion: true}
	ours := map[string]string{
		"pmprobe": pcptest.GoCommandWith(t, "github.com/gopcp/gopcp/cmd/pmprobe", build),
		"pminfo":  pcptest.GoCommandWith(t, "github.com/gopcp/gopcp/cmd/pminfo", build),
	}
	table := []string{"-K", "clear", "-K", "add,122," + so + ",jbd2_init", "-n", pmns}
	questions := [][]string{
		{"pmprobe", "-L", "jbd2"},
		{"pmprobe", "-L", "-v", "jbd2.njournals"},
		{"pminfo", "-L", "-dm", "jbd2"},
		{"pmprobe", "-L", "-I", "jbd2.transaction.count", "jbd2.transaction.requested"},
		append([]string{"pmprobe", "-L"}, append(table, "jbd2")...),
		append([]string{"pminfo", "-L", "-dm"}, append(table, "jbd2.njournals", "jbd2.transaction.total")...),
	}
	run := func(prog string, args []string) string {
		cmd := exec.Command(prog, args...)
		cmd.Env = append(os.Environ(), varDir)
		out, _ := cmd.CombinedOutput()
		return string(out)
	}
	for _, q := range questions {
		pcpTool, err := in.Tool(q[0])
		if err != nil {
			pcptest.Missing(t, err.Error())
		}
		want, got := run(pcpTool, q[1:]), run(ours[q[0]], q[1:])
		if got != want {
			t.Errorf("%s:\nours:\n%s\nPCP's:\n%s", strings.Join(q, " "), got, want)
		}
		if strings.Contains(want, "-12386") && strings.Contains(strings.Join(q, " "), "add,122") {
			t.Errorf("%s: PCP's tool found no agent:\n%s", strings.Join(q, " "), want)
		}
	}
}
