package cgroup

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// BenchmarkAgainstPCP runs PCP's pmdaproc and our test agent over the same
// cgroup2 tree of 1,000 cgroups and reports each agent's CPU time (user
// plus system, from /proc/PID/stat) per fetch of every cgroup metric
// (pmprobe -v cgroup, batches of 128).
func BenchmarkAgainstPCP(b *testing.B) {
	root := benchTree(b, map[string]string{
		"cpu.stat":     "usage_usec 100\nuser_usec 60\nsystem_usec 40\n",
		"memory.stat":  "anon 1\nfile 2\nkernel_stack 3\nsock 4\nshmem 5\n",
		"io.stat":      "8:0 rbytes=1 wbytes=2 rios=3 wios=4 dbytes=5 dios=6\n",
		"cpu.pressure": "some avg10=0.00 avg60=0.00 avg300=0.00 total=1\n",
		"io.pressure":  "some avg10=0.00 avg60=0.00 avg300=0.00 total=1\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
	})
	theirs := testbed.StartPMCD(b, testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(), pcpProcAt(root)}})
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	ours := testbed.StartGoPMCD(b, testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(),
		testbed.PipeAgent("proc", Domain, "$PCP_PMDAS_DIR/proc/root_proc", "/usr/bin/env",
			agentEnv+"=1", "GOPCP_CGROUP_TEST_ROOT="+root, exe, "-d", "3")}})
	report := map[string]float64{}
	for _, side := range []struct {
		name string
		p    *testbed.PMCD
	}{{"pcp", theirs}, {"ours", ours}} {
		agent := childOf(b, side.p.PID())
		pmprobeB(b, side.p) // warm: first walk, caches filled
		before := cpuTicks(b, agent)
		b.ResetTimer()
		for range b.N {
			pmprobeB(b, side.p)
		}
		b.StopTimer()
		report[side.name+"-cpu-ms/fetch"] = float64(cpuTicks(b, agent)-before) * 10 / float64(b.N)
	}
	// ResetTimer forgets reported metrics, so both are reported last.
	for unit, v := range report {
		b.ReportMetric(v, unit)
	}
}

func pmprobeB(b *testing.B, p *testbed.PMCD) {
	cmd, err := p.Command(context.Background(), "pmprobe", "-h", p.Host(), "-v", "cgroup")
	if err != nil {
		b.Fatal(err)
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("pmprobe: %v\n%s", err, out)
	}
}

// childOf is the agent process of a pmcd: its one child (listed by
// whichever of its threads started it).
func childOf(b *testing.B, pid int) int {
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	if err != nil {
		b.Fatal(err)
	}
	var f []string
	for _, task := range tasks {
		data, err := os.ReadFile(task)
		if err == nil {
			f = append(f, strings.Fields(string(data))...)
		}
	}
	if len(f) != 1 {
		b.Fatalf("pmcd %d has children %q", pid, f)
	}
	c, _ := strconv.Atoi(f[0])
	return c
}

// cpuTicks is a process's user and system time, in clock ticks.
func cpuTicks(b *testing.B, pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Fatal(err)
	}
	s := string(data)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	u, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return u + st
}
