package main

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestDerivedAgainstPCP logs derived metrics (defined through
// PCP_DERIVED_CONFIG, as every PMAPI client reads them) with PCP's
// pmlogger and ours from the same pmcd and configuration: PCP's pmdumplog
// prints the same descriptors and instance domains for both archives, and
// the same records once times and changing values are masked.
func TestDerivedAgainstPCP(t *testing.T) {
	p := testbed.StartPMCD(t, testbed.Options{})
	bin := pcptest.GoCommand(t, ".")
	dir := t.TempDir()
	defs := filepath.Join(dir, "derived")
	if err := os.WriteFile(defs, []byte(
		"qa.sum = sample.long.one + sample.long.ten\n"+
			"qa.colour2 = sample.colour * 2\n"+
			"qa.ratio = sample.long.ten / sample.long.hundred\n"+
			"qa.unused = sample.long.million\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "config")
	if err := os.WriteFile(cfg, []byte("log mandatory on 100 msec { qa.sum qa.colour2 sample.long.one qa.ratio }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// the loggers' control ports from a private one, not PCP's 4330
	env := append(p.Env(), "PCP_DERIVED_CONFIG="+defs, "PMLOGGER_PORT="+strconv.Itoa(freePortBase(t)))
	record := func(pcp bool, base string) {
		recordArchive(t, p, bin, env, pcp, base, "-V", "3", "-h", p.Host(), "-c", cfg, "-s", "4", "-l", base+".log", base)
	}
	// Names of one length, so that the prologue records are the same size.
	ours, theirs := filepath.Join(dir, "our"), filepath.Join(dir, "pcp")
	record(false, ours)
	record(true, theirs)
	stamps := regexp.MustCompile(`\d\d:\d\d:\d\d\.\d+|value \d+`)
	// The loggers' instance domain holds each logger's process id.
	pids := regexp.MustCompile(`(?m)^(\s+)\d+ or "\d+"$`)
	for _, args := range [][]string{{"-d"}, {"-i"}, {"-e"}, {"-h"}, {"-a", "-x"}} {
		run := func(base string) string {
			r := p.Run("pmdumplog", append(args, base)...)
			if r.Err != nil {
				t.Fatalf("pmdumplog %v %s: %v\n%s", args, base, r.Err, r.Stderr)
			}
			out := regexp.MustCompile(regexp.QuoteMeta(base)).ReplaceAllString(r.Stdout+r.Stderr, "ARCHIVE")
			out = pids.ReplaceAllString(out, "${1}PID")
			out = stamps.ReplaceAllString(out, "X")
			if args[0] == "-a" {
				// Records' times and the pmlogger.port/pid values vary.
				// PCP's pmlogger writes a derived metric's descriptor again
				// with every fetch (its archive lookup uses the PMID before
				// the logged-cluster rewrite); ours writes it once, so the
				// index's metadata offsets differ.
				out = regexp.MustCompile(`(?m)^(.*\t\s+\d+\s+)\d+(\s+\d+)$`).ReplaceAllString(out, "${1}META${2}")
				out = regexp.MustCompile(`PID for pmlogger: \d+`).ReplaceAllString(out, "PID for pmlogger: PID")
				out = regexp.MustCompile(`(?m)^(\s+\S+ \(pmcd\.(pmlogger|pid|seqnum)[^\n]*)\n(\s+value .*\n)?`).ReplaceAllString(out, "")
			}
			return out
		}
		want, got := run(theirs), run(ours)
		if want != got {
			t.Errorf("pmdumplog %v differs\nPCP's:\n%s\nours:\n%s\nfirst difference: %s", args, want, got, firstDiff(want, got))
		}
	}
	// PCP's pmlogger writes a derived metric's descriptor again with
	// every fetch (its lookup of what the archive has uses the PMID
	// before the logged-cluster rewrite), which pmdumplog -d cannot show
	// as it keeps one of each; ours writes each descriptor once.
	for pmid, n := range descRecords(t, ours+".meta") {
		if n != 1 {
			t.Errorf("our archive has %d descriptors of %#x", n, pmid)
		}
	}
	if testing.Verbose() {
		t.Logf("descriptors in PCP's archive, by PMID: %v", descRecords(t, theirs+".meta"))
	}
	// PCP's pmlogcheck says the same of both: a derived metric over an
	// agent's instance domain has a PMID of another domain.
	check := func(base string) string {
		r := p.Run("pmlogcheck", base)
		return strings.ReplaceAll(r.Stdout+r.Stderr, base, "ARCHIVE")
	}
	if want, got := check(theirs), check(ours); want != got {
		t.Errorf("PCP's pmlogcheck:\non PCP's archive:\n%s\non ours:\n%s", want, got)
	}
}

// recordArchive runs PCP's pmlogger or ours (bin) to its end with args in
// env; base's log file is shown when it fails.
func recordArchive(t *testing.T, p *testbed.PMCD, bin string, env []string, pcp bool, base string, args ...string) {
	t.Helper()
	cmd := loggerCommand(t, p, bin, pcp, args...)
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		log, _ := os.ReadFile(base + ".log")
		t.Fatalf("pmlogger (PCP's: %v): %v\n%s%s", pcp, err, out, log)
	}
}

// loggerCommand is PCP's pmlogger (the test skipped when it cannot be
// run) or ours (bin), with args in p's environment.
func loggerCommand(t *testing.T, p *testbed.PMCD, bin string, pcp bool, args ...string) *exec.Cmd {
	t.Helper()
	if pcp {
		c, err := p.Command(context.Background(), "pmlogger", args...)
		if err != nil {
			t.Skip(err)
		}
		return c
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = p.Env()
	return cmd
}

// recordBed starts a private pmcd for the tests that record with both
// loggers, and gives it, our pmlogger (pmdalocal beside it, for local
// contexts), a directory for the archives and the loggers' environment,
// their control ports from a private base rather than PCP's 4330.
func recordBed(t *testing.T) (p *testbed.PMCD, bin, dir string, env []string) {
	t.Helper()
	p = testbed.StartPMCD(t, testbed.Options{})
	bin = pcptest.GoCommandWith(t, ".", pcptest.Build{Companion: true})
	return p, bin, t.TempDir(), append(p.Env(), "PMLOGGER_PORT="+strconv.Itoa(freePortBase(t)))
}

// firstDiff shows the first line where a and b differ.
func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d: %q vs %q", i+1, al[i], bl[i])
		}
	}
	return fmt.Sprintf("lengths %d and %d lines", len(al), len(bl))
}

// descRecords counts the descriptor records (type 1) of a metadata file
// by PMID.
func descRecords(t *testing.T, meta string) map[uint32]int {
	t.Helper()
	b, err := os.ReadFile(meta)
	if err != nil {
		t.Fatal(err)
	}
	out := map[uint32]int{}
	for off := 0; off+12 <= len(b); {
		n := int(binary.BigEndian.Uint32(b[off:]))
		if n < 12 || off+n > len(b) {
			t.Fatalf("%s: bad record at %d", meta, off)
		}
		if off > 0 && binary.BigEndian.Uint32(b[off+4:]) == 1 {
			out[binary.BigEndian.Uint32(b[off+8:])]++
		}
		off += n
	}
	return out
}
