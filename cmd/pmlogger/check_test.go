package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/gopcp/gopcp/internal/testbed"
)

// TestCheckAgainstPCP runs PCP's pmlogger -C and ours on good and bad
// configurations against the same pmcd: the messages and exit status are
// the same (the start line's time and process id aside).
func TestCheckAgainstPCP(t *testing.T) {
	p := testbed.StartPMCD(t, testbed.Options{})
	bin := buildLogger(t)
	start := regexp.MustCompile(`(?m)^\[[^]]*\] pmlogger\(\d+\) Info: Start\n`)
	preproc := regexp.MustCompile(`(?m)^preprocessor cmd: .*\n`)
	for i, cfg := range []string{
		"log mandatory on 1 sec { sample.long.one sample.colour[red, \"blue\"] }\n",
		"log mandatory on 1 sec { sample.long.one }\nlog advisory on 2 sec { sample.long.one }\n",
		"log mandatory on 1 sec { no.such.metric sample.colour[nosuch] }\n",
		"log mandatory on 1 sec { sample.bin[bin-100] }\n",
		"log mandatory on { sample.long.one }\n",
		"log mandatory on 1 sec { sample.long.one! }\n",
		"log mandatory on 1 sec { }\n",
		"log mandatory on 1 sec sample.long.one\n[access]\nallow * : all;\n",
		"log mandatory on 1 sec { sample.long.one }\n[access]\nallow * : everything;\n",
	} {
		path := filepath.Join(t.TempDir(), "config")
		if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		pcp := p.Run("pmlogger", "-C", "-h", p.Host(), "-c", path)
		ours := exec.Command(bin, "-C", "-h", p.Host(), "-c", path)
		out, err := ours.CombinedOutput()
		code := 0
		if err != nil {
			code = ours.ProcessState.ExitCode()
		}
		pcpCode := 0
		if pcp.Err != nil {
			pcpCode = 1
		}
		want := preproc.ReplaceAllString(start.ReplaceAllString(pcp.Stdout+pcp.Stderr, ""), "")
		got := start.ReplaceAllString(string(out), "")
		if want != got || pcpCode != code {
			t.Errorf("config %d:\n%s\nPCP (exit %d):\n%s\nours (exit %d):\n%s", i, cfg, pcpCode, want, code, got)
		}
	}
}
