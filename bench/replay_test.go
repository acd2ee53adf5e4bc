package bench

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// replayCases are the replay tools' command lines over one archive:
// pmdumplog -a, pmval -a (at the archive's own interval and at -t), and
// pminfo -a -f.
func replayCases(pcpDir, ours func(string) string, base string, metric, dense string, step string) []replayCase {
	name := filepath.Base(base)
	mk := func(label, tool string, args ...string) replayCase {
		return replayCase{label: label, pcp: pcpDir(tool), ours: ours(tool), args: args}
	}
	return []replayCase{
		mk("pmdumplog -a "+name, "pmdumplog", "-a", base),
		mk("pmval -a "+name+" "+metric, "pmval", "-a", base, metric),
		mk("pmval -a "+name+" -t "+step+" "+dense, "pmval", "-a", base, "-t", step, dense),
		mk("pminfo -a "+name+" -f", "pminfo", "-a", base, "-f"),
	}
}

// TestReplayLargeSideBySide makes an archive of at least
// GOPCP_BENCH_REPLAY_MB (100 by default) MB of data volume with PCP's
// pmlogger logging the Linux agent every 100 ms (a private PCP pmcd; the
// archive in a temporary directory, or GOPCP_BENCH_REPLAY_DIR to keep it
// for the next run), then runs PCP's replay tools and ours over it side
// by side, GOPCP_BENCH_ROUNDS rounds (3 by default): outputs compared
// first, then wall, CPU and peak RSS with their ratios.
//
//	GOPCP_BENCH=1 go test -run TestReplayLargeSideBySide -v -timeout 2h ./bench/
func TestReplayLargeSideBySide(t *testing.T) {
	if os.Getenv("GOPCP_BENCH") != "1" {
		t.Skip("GOPCP_BENCH=1 runs the side-by-side benchmarks")
	}
	pcpTool(t, "pmlogger")
	mb := int64(100)
	if n, err := strconv.ParseInt(os.Getenv("GOPCP_BENCH_REPLAY_MB"), 10, 64); err == nil && n > 0 {
		mb = n
	}
	base := makeLinuxArchive(t, replayArchiveDir(t), archiveSpec{
		name:     "linux-100ms-" + strconv.FormatInt(mb, 10) + "mb",
		interval: "100 msec",
		roots:    linuxLogRoots,
		minBytes: mb << 20,
	})
	ours := ourTools(t)
	cases := replayCases(func(n string) string { return pcpTool(t, n) }, ours, base,
		"kernel.all.load", "kernel.percpu.cpu.user", "0.01")
	res := runSideBySide(t, benchRounds(), cases)
	t.Logf("archive %s (%s data volume), %d rounds, medians:\n%s", filepath.Base(base), mibOf(base+".0"), benchRounds(), replayTable(res))
}

// replayQAArchives are the largest uncompressed QA archives, with a
// metric to replay in each.
var replayQAArchives = []struct{ name, metric, dense string }{
	{"20180102", "kernel.percpu.cpu.user", "kernel.all.cpu.user"},
	{"20180127.08.40", "kernel.all.load", "kernel.all.cpu.user"},
	{"dm-io", "disk.dm.read", "disk.dm.read"},
	{"20180415.09.16", "kernel.all.load", "kernel.all.cpu.user"},
}

// TestReplayMemorySideBySide runs the replay tools, PCP's and ours
// alternating, over the largest uncompressed QA archives and reports
// peak RSS (the goal: ours at most PCP's) with CPU.
//
//	GOPCP_BENCH=1 go test -run TestReplayMemorySideBySide -v ./bench/
func TestReplayMemorySideBySide(t *testing.T) {
	if os.Getenv("GOPCP_BENCH") != "1" {
		t.Skip("GOPCP_BENCH=1 runs the side-by-side benchmarks")
	}
	ours := ourTools(t)
	var all []replayResult
	for _, a := range replayQAArchives {
		base := filepath.Join("/var/lib/pcp/testsuite/archives", a.name)
		if _, err := os.Stat(base + ".0"); err != nil {
			t.Skip("no QA archive:", err)
		}
		cases := replayCases(func(n string) string { return pcpTool(t, n) }, ours, base, a.metric, a.dense, "0.1")
		all = append(all, runSideBySide(t, benchRounds(), cases)...)
	}
	t.Logf("%d rounds, medians:\n%s", benchRounds(), replayTable(all))
}

// mibOf is a file's size in MiB, for logs.
func mibOf(path string) string {
	st, err := os.Stat(path)
	if err != nil {
		return "?"
	}
	return mib(st.Size())
}
