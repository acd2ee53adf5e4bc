package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestEventParamsAgainstPCP logs the sample agent's event metrics with
// PCP's pmlogger and ours, each after the agent's event sequences are
// reset: the archives hold the same descriptors, in the same order, for
// the metrics the records carry as parameters (which PCP's pmlogger adds
// for event metrics but not high resolution ones, and only up to the
// first instance without records), so PCP's pmdumplog prints the same.
func TestEventParamsAgainstPCP(t *testing.T) {
	t.Parallel()
	p, bin, dir, env := recordBed(t)
	cfg := filepath.Join(dir, "config")
	if err := os.WriteFile(cfg, []byte("log mandatory on 100 msec { sample.event.records sample.event.highres_records sample.event.no_indom_records }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	record := func(pcp bool, base string) {
		for _, m := range []string{"sample.event.reset", "sample.event.reset_highres"} {
			if r := p.Run("pmstore", m, "0"); r.Err != nil {
				t.Fatalf("pmstore %s: %v\n%s", m, r.Err, r.Stderr)
			}
		}
		recordArchive(t, p, bin, env, pcp, base, "-h", p.Host(), "-c", cfg, "-s", "5", "-l", base+".log", base)
	}
	ours, theirs := filepath.Join(dir, "our"), filepath.Join(dir, "pcp")
	record(false, ours)
	record(true, theirs)
	stamps := regexp.MustCompile(`\d\d:\d\d:\d\d\.\d+`)
	// the descriptors, and the records with their parameters' names
	for _, args := range [][]string{{"-d", "ARCHIVE"}, {"ARCHIVE", "sample.event"}} {
		run := func(base string) string {
			r := p.Run("pmdumplog", strings.Fields(strings.ReplaceAll(strings.Join(args, " "), "ARCHIVE", base))...)
			out := strings.ReplaceAll(r.Stdout+r.Stderr, base, "ARCHIVE")
			return stamps.ReplaceAllString(out, "X")
		}
		if want, got := run(theirs), run(ours); want != got {
			t.Errorf("pmdumplog %v differs\nPCP's:\n%s\nours:\n%s\nfirst difference: %s", args, want, got, firstDiff(want, got))
		}
	}
}
