package bench

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// logcheckQAArchives are the QA archives with the largest compressed
// files: .xz volumes of many blocks (pcp-pidstat-process-args, 344 MB
// in 35), of one large block (20180416.10.00, 100 MB; bozo-20170904,
// 20201109), of one or two small ones, and a bzip2 volume (20130706).
var logcheckQAArchives = []string{
	"pcp-pidstat-process-args", "20180416.10.00", "bozo-20170904", "20201109",
	"20180606", "pcp-zeroconf", "pcp-free-tera", "pcp-pidstat-process-states", "20130706",
}

// TestLogcheckSideBySide runs PCP's pmlogcheck and ours, alternating,
// over the QA archives with the largest compressed files and over .xz
// copies of the archive TestReplayLargeSideBySide makes (100 MB of data
// volume, or GOPCP_BENCH_REPLAY_MB): one in blocks of 10 MiB, as
// pmlogger_daily compresses, and one of a single block, as xz without
// threads writes. Outputs are compared first, then wall, CPU and peak
// RSS with their ratios (issue 20: ours at most PCP's peak).
//
//	GOPCP_BENCH=1 go test -run TestLogcheckSideBySide -v -timeout 0 ./bench/
func TestLogcheckSideBySide(t *testing.T) {
	if os.Getenv("GOPCP_BENCH") != "1" {
		t.Skip("GOPCP_BENCH=1 runs the side-by-side benchmarks")
	}
	pcpCheck := pcpTool(t, "pmlogcheck")
	ours := ourTools(t)("pmlogcheck")
	var cases []replayCase
	for _, name := range logcheckQAArchives {
		base := filepath.Join("/var/lib/pcp/testsuite/archives", name)
		if m, _ := filepath.Glob(base + ".meta*"); len(m) == 0 {
			t.Skip("no QA archive", name)
		}
		cases = append(cases, replayCase{label: "pmlogcheck " + name, pcp: pcpCheck, ours: ours, args: []string{base}})
	}
	if os.Getenv("GOPCP_BENCH_LOGCHECK_QA_ONLY") == "" {
		pcpTool(t, "pmlogger")
		xzProg := pcpTool(t, "xz")
		mb := int64(100)
		if n, err := strconv.ParseInt(os.Getenv("GOPCP_BENCH_REPLAY_MB"), 10, 64); err == nil && n > 0 {
			mb = n
		}
		dir := replayArchiveDir(t)
		base := makeLinuxArchive(t, dir, archiveSpec{
			name:     "linux-100ms-" + strconv.FormatInt(mb, 10) + "mb",
			interval: "100 msec",
			roots:    linuxLogRoots,
			minBytes: mb << 20,
		})
		for _, c := range []struct {
			name string
			args []string
		}{
			{"xz-blocks", []string{"-0", "--block-size=10MiB"}},
			{"xz-one-block", []string{"-6"}},
		} {
			copyBase := xzCopy(t, xzProg, base, filepath.Join(dir, filepath.Base(base)+"-"+c.name), c.args)
			cases = append(cases, replayCase{label: "pmlogcheck " + filepath.Base(copyBase), pcp: pcpCheck, ours: ours, args: []string{copyBase}})
		}
	}
	res := runSideBySide(t, benchRounds(), cases)
	t.Logf("%d rounds, medians:\n%s", benchRounds(), replayTable(res))
}

// xzCopy makes (or, already there, reuses) a copy of archive base at
// copyBase with its data volume compressed by xz with args.
func xzCopy(t *testing.T, xzProg, base, copyBase string, args []string) string {
	t.Helper()
	for _, s := range []string{".meta", ".index"} {
		b, err := os.ReadFile(base + s)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(copyBase+s, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	vol := copyBase + ".0.xz"
	if st, err := os.Stat(vol); err == nil && st.Size() > 0 {
		return copyBase
	}
	out, err := os.Create(vol + ".part")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(xzProg, append(append([]string{"-c"}, args...), base+".0")...)
	cmd.Stdout = out
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(vol+".part", vol); err != nil {
		t.Fatal(err)
	}
	t.Logf("made %s (%s)", vol, mibOf(vol))
	return copyBase
}
