package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestPreprocessAgainstPCP runs PCP's pmlogger -C and ours on
// configurations using pmcpp's %include, %define, %ifdef and %shell, good
// and bad: the messages (file names and lines after includes among them)
// and exit status are the same.
func TestPreprocessAgainstPCP(t *testing.T) {
	// Waits on daemons, not CPUs: run beside the other comparisons.
	t.Parallel()
	p := testbed.StartPMCD(t, testbed.Options{})
	bin := pcptest.GoCommand(t, ".")
	start := regexp.MustCompile(`(?m)^\[[^]]*\] pmlogger\(\d+\) Info: Start\n`)
	dir := t.TempDir()
	inc := "%define freq \"2 sec\"\n%define M sample.long\n# a comment /* kept\nlog mandatory on 1 sec { sample.long.one }\n"
	if err := os.WriteFile(filepath.Join(dir, "common"), []byte(inc), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bad"), []byte("log mandatory on 1 sec { sample.long.one }\nlog mandatory on 1 sec { sample.bin[bin-100] sample.nope }\nlog mandatory on { x }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, cfg := range []string{
		"# first\n%include \"bad\"\nlog mandatory on 1 sec { sample.long.ten }\n",
		"%include \"common\"\nlog mandatory on %freq { %M.ten %{M}.hundred }\n",
		"%include \"common\"\n%ifdef freq\nlog advisory on %freq { sample.colour }\n%else\nlog advisory on 1 sec { no.such }\n%endif\n",
		"%include \"common\"\n%ifndef freq\nlog advisory on 1 sec { sample.colour }\n%endif\nlog mandatory on 1 sec { no.such.metric }\n",
		"%include \"common\"\n\nlog mandatory on %freq { %M.ten! }\n",
		"%include \"missing\"\nlog mandatory on 1 sec { sample.long.one }\n",
		"%define A \"1 sec\"\n%define A \"2 sec\"\nlog mandatory on %A { sample.long.one }\n",
		"%ifdef A\nlog mandatory on 1 sec { sample.long.one }\n",
		"%shell \"echo log mandatory on 1 sec { sample.long.ten }\"\nlog mandatory on 1 sec { sample.long.ten sample.nope }\n",
		"log mandatory on 1 sec { sample.long.one }\n%include \"common\"\nlog advisory on 1 sec { sample.long.one }\n",
	} {
		path := filepath.Join(dir, "config")
		if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		pcp := p.Run("pmlogger", "-C", "-h", p.Host(), "-c", path)
		ours := exec.Command(bin, "-C", "-h", p.Host(), "-c", path)
		ours.Env = p.Env()
		out, err := ours.CombinedOutput()
		code := 0
		if err != nil {
			code = ours.ProcessState.ExitCode()
		}
		pcpCode := 0
		if pcp.Err != nil {
			pcpCode = 1
		}
		want := start.ReplaceAllString(pcp.Stdout+pcp.Stderr, "")
		got := start.ReplaceAllString(string(out), "")
		if want != got || pcpCode != code {
			t.Errorf("config %d:\n%s\nPCP (exit %d):\n%s\nours (exit %d):\n%s", i, cfg, pcpCode, want, code, got)
		}
	}
}
