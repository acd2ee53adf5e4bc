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

// TestCheckAgainstPCP runs PCP's pmlogger -C and ours on good and bad
// configurations against the same pmcd: the messages and exit status are
// the same (the start line's time and process id aside).
func TestCheckAgainstPCP(t *testing.T) {
	// Waits on daemons, not CPUs: run beside the other comparisons.
	t.Parallel()
	p := testbed.StartPMCD(t, testbed.Options{})
	bin := pcptest.GoCommand(t, ".")
	start := regexp.MustCompile(`(?m)^\[[^]]*\] pmlogger\(\d+\) Info: Start\n`)
	stamp := regexp.MustCompile(`(?m)^\[[^]]*\] pmlogger\(\d+\) `)
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
		// [access] statements are applied as they are read: unknown
		// hosts and clashes end the run.
		"log mandatory on 1 sec { sample.long.one }\n[access]\nallow nosuchhost.invalid : all;\n",
		"log mandatory on 1 sec { sample.long.one }\n[access]\nallow 127.0.0.1 : all;\ndisallow 127.0.0.1 : enquire;\n",
		"log mandatory on 1 sec { sample.long.one }\n[access]\nallow 10.1.2.3 : all except all;\n",
		"log mandatory on 1 sec { sample.long.one }\n[access]\nallow 10.1.2.3 : enquire, all;\n",
		"log mandatory on 1 sec { sample.long.one }\n[access]\ndisallow local: : all except enquire;\nallow * : all;\n",
		"log mandatory on 1 sec { sample.long.one }\n[access]\nallow 1.2.3.4, localhost : advisory, mandatory;\ndisallow * : all;\n",
		"log mandatory on 1 sec { sample.long.one }\n[access]\nallow 192.168.* : enquire;\nallow 10.* : all except advisory, mandatory;\n",
		"log mandatory on 1 sec { sample.long.one }\n[access]\nallow 10.1.2.3 : all;\nallow 10.1.2.3 : enquire;\n",
		// Lines as pmlogger's parser counts them: a metric's warning
		// at the token after it (or at its "]"), the end of input on
		// the line after the last, a host at its own line; what came
		// before a syntax error is acted on first.
		"log mandatory on 1 sec {\n  sample.long.one\n  no.such.metric\n}\n",
		"log mandatory on 1 sec {\n  no.such.metric\n\n\n  sample.colour [\n  \"nosuch\"\n  ]\n  sample.long.one\n}\n",
		"log mandatory on 1 sec no.such.metric\n\nlog mandatory on 2 sec no.such.other\n",
		"log mandatory on 1 sec {\n  sample.long.one\n",
		"log mandatory on 1 sec { no.such.metric\n sample.long.one @ }\n",
		"log mandatory on 1 sec { no.such.metric }\nlog bogus\n",
		"log mandatory on -1 sec { sample.long.one }\n",
		"log mandatory on 1 sec { sample.long.one }\n[access]\nallow\n  nosuch.host.invalid\n  : all;\ndisallow * : all\n",
		"log mandatory on 1 sec { sample.long.one }\n[access]\nallow localhost : all;\nallow \"localhost\" : all;\n",
		"log mandatory on 1 sec { sample.long.one }\n[access]\n",
		"log mandatory on 1 sec { sample.long.one }\n[access]\nallow a-b.invalid, -x : all;\n",
		"log mandatory on 100000 hours { sample.long.one }\n",
		"log mandatory on 268436 sec { sample.long.one }\n",
		// The first pass looks the names inside braces up at once.
		"log mandatory on 1 sec { sample }\n",
		"log mandatory on 1 sec { no.such.one no.such.two }\n",
		"log mandatory on 1 sec { sample.colour [ \"no.such\" ] # no.such.three\n}\n",
		// Instances are looked up in the metric's instance domain,
		// a singular metric's too (where none is defined).
		"log mandatory on 1 sec { sample.long.one [ 1 ] }\n",
		"log mandatory on 1 sec { sample.long.one [ \"one\" 2 ] sample.long.ten }\n",
		"log mandatory on 1 sec { sample.colour [ 7 \"nosuch\" 1 ] }\n",
		"log mandatory on 1 sec { sample.colour [ 99 ] }\n",
		"log mandatory on 1 sec { sample.colour [ 1 ] }\nlog advisory on 1 sec { sample.colour [ 1 ] }\n",
		"log mandatory off { sample.colour [ \"red\" 2 ] }\nlog advisory on 1 sec { sample.colour [ 2 \"red\" 1 ] }\nlog advisory off { sample.colour [ 2 ] }\n",
		"log mandatory on 1 sec { sample.long.one [ 1 ] sample.long.one }\nlog advisory off { sample.long.one [ \"x\" ] }\n",
		"log mandatory on 1 sec { sample.colour [ 1 ] }\nlog mandatory maybe { sample.colour [ 1 ] }\nlog advisory on 2 sec { sample.colour [ 1 ] }\n",
		// A Unix socket pattern's path is ignored, with a warning.
		"log mandatory on 1 sec { sample.long.one }\n[access]\nallow unix:/tmp/x* : all;\n",
		"log mandatory on 1 sec { sample.long.one }\n[access]\nallow local:/a/b : enquire;\n",
		"log mandatory on 1 sec { sample.long.one }\n[access]\nallow unix:* : all;\ndisallow local:/// : advisory;\n",
		"log mandatory on 1 sec { sample.long.one }\n[access]\nallow unix:/* : all;\nallow local:x : enquire;\n",
		"log mandatory on 1 sec { sample.long.one }\n[access]\nallow unix: : all;\ndisallow unix:/tmp/s : enquire;\n",
	} {
		path := filepath.Join(t.TempDir(), "config")
		if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		// The two run side by side (each mostly waits on pmcd).
		var pcp testbed.Result
		done := make(chan struct{})
		go func() {
			pcp = p.Run("pmlogger", "-C", "-h", p.Host(), "-c", path)
			close(done)
		}()
		ours := exec.Command(bin, "-C", "-h", p.Host(), "-c", path)
		ours.Env = p.Env()
		out, err := ours.CombinedOutput()
		<-done
		code := 0
		if err != nil {
			code = ours.ProcessState.ExitCode()
		}
		pcpCode := 0
		if pcp.Err != nil {
			pcpCode = 1
		}
		want := stamp.ReplaceAllString(start.ReplaceAllString(pcp.Stdout+pcp.Stderr, ""), "")
		got := stamp.ReplaceAllString(start.ReplaceAllString(string(out), ""), "")
		if want != got || pcpCode != code {
			t.Errorf("config %d:\n%s\nPCP (exit %d):\n%s\nours (exit %d):\n%s", i, cfg, pcpCode, want, code, got)
		}
	}
}
