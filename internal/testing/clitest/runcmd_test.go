package clitest

import (
	"os/exec"
	"testing"
)

func TestRunCmd(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	tests := []struct {
		script         string
		stdout, stderr string
		code           int
	}{
		{"echo out; echo err >&2", "out\n", "err\n", 0},
		{"printf x; exit 3", "x", "", 3},
		{"kill -KILL $$", "", "", -1},
	}
	for _, tc := range tests {
		out, errb, code := RunCmd(t, exec.Command(sh, "-c", tc.script))
		if string(out) != tc.stdout || string(errb) != tc.stderr || code != tc.code {
			t.Errorf("%q: stdout %q stderr %q exit %d, want %q %q %d", tc.script, out, errb, code, tc.stdout, tc.stderr, tc.code)
		}
	}
}

func TestMultiArchivePath(t *testing.T) {
	m := MultiArchive{Dir: "/qa/multi", Set: "multi"}
	if got, want := m.Path("11.44"), "/qa/multi/20150508.11.44"; got != want {
		t.Errorf("Path = %q, want %q", got, want)
	}
}
