package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestInstanceProfileAfterPMLC logs one instance of sample.colour, then
// has pmlc add another to the same task: PCP's pmlogger works the
// instance profile out again for every fetch, so the new instance is
// logged from then on; ours must log it too, not keep asking pmcd for
// the instances of its first profile.
func TestInstanceProfileAfterPMLC(t *testing.T) {
	t.Parallel()
	p := testbed.StartPMCD(t, testbed.Options{})
	bin := pcptest.GoCommand(t, ".")
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config")
	if err := os.WriteFile(cfg, []byte("log mandatory on 100 msec { sample.colour[red] }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, pcp := range []bool{true, false} {
		base := filepath.Join(dir, strconv.FormatBool(pcp))
		l, msg := launch(t, p, bin, pcp, base, "-h", p.Host(), "-c", cfg)
		if l == nil {
			t.Fatalf("pmlogger (PCP's: %v) did not start:\n%s", pcp, msg)
		}
		r := runPMLC(p, "log mandatory on 100 msec sample.colour[blue]\n", "-h", "localhost", "-p", strconv.Itoa(l.port))
		if r.Err != nil {
			t.Fatalf("pmlc (PCP's pmlogger: %v): %v\n%s%s", pcp, r.Err, r.Stdout, r.Stderr)
		}
		// Records after the request, blue among them.
		for deadline := time.Now().Add(30 * time.Second); ; {
			d := p.Run("pmdumplog", base, "sample.colour")
			if strings.Contains(d.Stdout, `"blue"`) {
				break
			}
			if time.Now().After(deadline) {
				t.Errorf("pmlogger (PCP's: %v) logged no blue after pmlc asked:\n%s", pcp, d.Stdout)
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		l.Stop()
	}
}
