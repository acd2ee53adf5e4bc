package pmval

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestHugeWidthStreams: -w pads every column, names and values alike, to
// the width given, which PCP's pmval streams through printf whatever its
// size (99999999999 is C's int 1,215,752,191: 1.2 GB a value). Ours
// writes the same bytes (compared by digest and length) without holding
// a column in memory: a run's peak resident memory stays below one
// column's width. Each case prints 64-192 MB; ours holds about 14 MB whatever the width.
func TestHugeWidthStreams(t *testing.T) {
	const width = 32_000_000
	bins := both(t)
	archive := clitest.QAArchive(t, "20041125")
	for _, args := range [][]string{
		// doubles with three instances: names and values through real
		{"-s", "1", "kernel.all.load"},
		// a string without instances: pmPrintValue's path, two samples
		{"-s", "2", "pmcd.version"},
		// a counter's rates, each CPU's name and value a column
		{"-s", "3", "kernel.percpu.cpu.user"},
		// and its raw values (pmPrintValue's path with instances)
		{"-s", "2", "-r", "kernel.percpu.cpu.user"},
	} {
		name := strings.Join(args, " ")
		args = append([]string{"-z", "-a", archive, "-S", "+61", "-t", "60", "-w", strconv.Itoa(width)}, args...)
		digest := map[string]string{}
		var total int64 // PCP's length: ours is read to near its end first
		for _, who := range []string{"PCP", "ours"} {
			cmd := exec.Command(bins[who], args...)
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			h := sha256.New()
			var n int64
			var copyErr error
			if who == "ours" && total > 1<<20 {
				// Its peak is read while it still has a pipe's worth
				// and more to write, so it is alive and blocked: the
				// rusage of a child started by a process this large
				// counts the parent's pages (vfork), not its own.
				n, copyErr = io.CopyN(h, out, total-512<<10)
				peak := vmHWM(t, cmd.Process.Pid)
				t.Logf("%s: ours peaked at %d KiB before its last 512 KiB", name, peak>>10)
				if copyErr == nil && peak >= width {
					t.Errorf("%s: ours peaked at %d bytes resident, a column is %d", name, peak, width)
				}
			}
			if copyErr == nil {
				var m int64
				m, copyErr = io.Copy(h, out)
				n += m
			}
			if err := cmd.Wait(); err != nil || copyErr != nil {
				t.Fatalf("%s: %s: %v %v\n%s", name, who, err, copyErr, stderr.String())
			}
			if n < width {
				t.Fatalf("%s: %s wrote %d bytes, less than one column", name, who, n)
			}
			if who == "PCP" {
				total = n
			}
			digest[who] = hex.EncodeToString(h.Sum(nil)) + " " + strconv.FormatInt(n, 10) + " bytes, stderr " + stderr.String()
		}
		if digest["ours"] != digest["PCP"] {
			t.Errorf("%s: ours %s, PCP's %s", name, digest["ours"], digest["PCP"])
		}
	}
}

// vmHWM is process pid's peak resident memory in bytes, from its status.
func vmHWM(t *testing.T, pid int) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatalf("no VmHWM in /proc/%d/status", pid)
	return 0
}
