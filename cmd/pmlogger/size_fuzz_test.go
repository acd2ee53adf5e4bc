package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// FuzzParseSize reads fuzzed -s arguments with parseSize and gives the
// same ones to PCP's pmlogger (with an empty configuration on its
// standard input and private directories, so it stops with nothing to
// log and touches nothing of the system's): both must accept and refuse
// alike. An
// argument accepted sets exactly one of samples, bytes and time.
func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"0", "5", "+5", " 5", "5b", "5bytes", "5Kb", "5kilobytes", "5MiBs", "3GB", "1sec",
		"0.5sec", "5x", "99999999999999999999", "-3", "5s", "5bs", "4294967297", "2 min", "1h30m", "", "b", "9223372036854775807g"} {
		f.Add(s)
	}
	pmlogger := pcptest.NeedTool(f, "pmlogger")
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, arg string) {
		if strings.IndexByte(arg, 0) >= 0 {
			return // not an argument
		}
		var samples int
		var bytes int64
		var d time.Duration
		err := parseSize(arg, &samples, &bytes, &d)
		if err == nil {
			set := 0
			for _, v := range []bool{samples != 0, bytes != 0, d != 0} {
				if v {
					set++
				}
			}
			if set > 1 || samples < 0 {
				t.Fatalf("parseSize(%q) = %d samples, %d bytes, %v", arg, samples, bytes, d)
			}
		}
		cmd := exec.Command(pmlogger, "-s", arg, "-h", "local:"+filepath.Join(dir, "no.socket"),
			"-l", filepath.Join(dir, "log"), filepath.Join(dir, "archive"))
		cmd.Env = []string{"PCP_LOG_DIR=" + dir, "PCP_TMP_DIR=" + dir, "PMLOGGER_LOCAL=1"}
		out, _ := cmd.CombinedOutput()
		refused := strings.Contains(string(out), "illegal size argument")
		if refused != (err != nil) {
			t.Fatalf("parseSize(%q): %v; PCP's pmlogger refuses it: %v\n%s", arg, err, refused, out)
		}
	})
}
