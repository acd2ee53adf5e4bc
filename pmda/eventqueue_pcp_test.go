package pmda

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// buildQueueHarness compiles the event queue harness against libpcp_pmda.
func buildQueueHarness(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "eventqueue")
	pcptest.Compile(t, pcptest.C{
		Src: "testdata/eventqueue_harness/eventqueue.c", Out: bin, CFlags: []string{"-O1"},
		Libs: pcptest.PMDALibs, Headers: pcptest.PMDAHeaders,
	})
	return bin
}

// runPCPQueueScripts runs scripts through libpcp_pmda's queues, each in
// a fresh process (the harness forks one per script), and returns what
// each printed.
func runPCPQueueScripts(t testing.TB, bin string, scripts []string) []string {
	t.Helper()
	var in strings.Builder
	for _, s := range scripts {
		in.WriteString(s)
		if s != "" && !strings.HasSuffix(s, "\n") {
			in.WriteString("\n")
		}
		in.WriteString("%%\n")
	}
	cmd := exec.Command(bin, "-b")
	cmd.Stdin = strings.NewReader(in.String())
	out, err := cmd.Output() // stderr: libpcp_pmda's warnings
	if err != nil {
		t.Fatalf("event queue harness: %v", err)
	}
	outs := strings.SplitAfter(string(out), "%%\n")
	if len(outs) != len(scripts)+1 || outs[len(scripts)] != "" {
		t.Fatalf("event queue harness: %d outputs for %d scripts", len(outs)-1, len(scripts))
	}
	for i := range scripts {
		outs[i] = strings.TrimSuffix(outs[i], "%%\n")
	}
	return outs[:len(scripts)]
}

// TestEventQueueScriptsAgainstPCP runs each script of testdata/eventqueue
// through our queues and compares what it prints with NAME.pcp, the
// output of libpcp_pmda's queues driven by the same script through
// testdata/eventqueue_harness/eventqueue.c. Where libpcp_pmda loses,
// duplicates or never reports events (see docs/pmda-extras.md), NAME.ours
// holds what ours prints instead and the test shows both; those scripts
// must still agree with PCP once records of missed events are left out
// of ours, unless NAME.ours starts with a "# differs:" line saying why
// not. With PCP at hand each script also runs through libpcp_pmda and
// must print NAME.pcp; UPDATE_GOLDEN=1 rewrites NAME.pcp from it, and
// NAME.ours from ours (review the change before committing it).
func TestEventQueueScriptsAgainstPCP(t *testing.T) {
	scripts, err := filepath.Glob(filepath.Join("testdata", "eventqueue", "*.script"))
	if err != nil || len(scripts) < 12 {
		t.Fatalf("%d scripts: %v", len(scripts), err)
	}
	var lives []string
	if havePCPMDA() {
		var texts []string
		for _, path := range scripts {
			texts = append(texts, readFile(t, path))
		}
		lives = runPCPQueueScripts(t, buildQueueHarness(t), texts)
	} else {
		pcptest.Missing(t, "libpcp-pmda3-dev is not installed: comparing with the stored outputs only")
	}
	for i, path := range scripts {
		name := strings.TrimSuffix(filepath.Base(path), ".script")
		t.Run(name, func(t *testing.T) {
			script := readFile(t, path)
			base := strings.TrimSuffix(path, ".script")
			if lives != nil {
				live := lives[i]
				if os.Getenv("UPDATE_GOLDEN") != "" {
					if err := os.WriteFile(base+".pcp", []byte(live), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				if want := readFile(t, base+".pcp"); live != want {
					t.Errorf("libpcp_pmda no longer prints %s.pcp:\n%s", name, lineDiff(want, live))
				}
			}
			pcpOut := readFile(t, base+".pcp")
			ours := runQueueScript(script, false)
			oursWant, departs := pcpOut, false
			if b, err := os.ReadFile(base + ".ours"); err == nil {
				oursWant, departs = string(b), true
			}
			why, rest, differs := strings.Cut(oursWant, "\n")
			if departs && strings.HasPrefix(why, "# differs:") {
				oursWant = rest
			} else {
				differs = false
			}
			if departs && os.Getenv("UPDATE_GOLDEN") != "" {
				head := ""
				if differs {
					head = why + "\n"
				}
				if err := os.WriteFile(base+".ours", []byte(head+ours), 0o644); err != nil {
					t.Fatal(err)
				}
				oursWant = ours
			}
			if ours != oursWant {
				t.Errorf("ours differs from %s:\n%s", map[bool]string{false: name + ".pcp", true: name + ".ours"}[departs], lineDiff(oursWant, ours))
			}
			if !departs {
				return
			}
			t.Logf("a departure from libpcp_pmda (- PCP, + ours):\n%s", lineDiff(pcpOut, ours))
			if pcpOut == ours {
				t.Errorf("%s.ours is the same as PCP's: no departure left", name)
			}
			if stripped := runQueueScript(script, true); !differs && stripped != pcpOut {
				t.Errorf("without records of missed events, ours still differs from PCP:\n%s", lineDiff(pcpOut, stripped))
			}
		})
	}
}

// havePCPMDA reports whether libpcp_pmda's headers and a compiler are here.
func havePCPMDA() bool {
	if _, err := exec.LookPath("gcc"); err != nil {
		return false
	}
	_, err := os.Stat("/usr/include/pcp/pmda.h")
	return err == nil
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// lineDiff shows the lines of want and got that differ, in order.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl == gl {
			b.WriteString("  " + wl + "\n")
			continue
		}
		if i < len(w) {
			b.WriteString("- " + wl + "\n")
		}
		if i < len(g) {
			b.WriteString("+ " + gl + "\n")
		}
	}
	return b.String()
}
