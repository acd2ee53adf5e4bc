package compat

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// samples is how many times the archive tests' loggers fetch.
const samples = "5"

// record runs a pmlogger (PCP's when bin is empty, else the program bin)
// against bed p with testdata/logger.conf until it has logged samples
// times, writing archive dir/name, dir made for it alone: the order in
// which a directory lists its files, which pmlogcheck -v shows, follows
// what else was made in it. Names of the same length keep the archives'
// sizes alike, as the preamble records the archive's path.
func record(p *testbed.PMCD, bin, dir, name string) error {
	conf, err := filepath.Abs("testdata/logger.conf")
	if err != nil {
		return err
	}
	dir = filepath.Join(dir, filepath.Dir(name))
	name = filepath.Base(name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	args := []string{"-h", p.Host(), "-c", conf, "-s", samples, "-l", filepath.Join(dir, name+".log"), filepath.Join(dir, name)}
	ctx, cancel := context.WithTimeout(context.Background(), testbed.RunTimeout)
	defer cancel()
	var cmd *exec.Cmd
	if bin == "" {
		if cmd, err = p.Command(ctx, "pmlogger", args...); err != nil {
			return err
		}
	} else {
		cmd = exec.CommandContext(ctx, bin, args...)
		cmd.Env = p.Env()
	}
	cmd.Dir = dir
	cmd.WaitDelay = testbed.RunTimeout
	if out, err := cmd.CombinedOutput(); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, name+".log"))
		return errors.New(strings.Join(cmd.Args, " ") + ": " + err.Error() + "\n" + string(out) + string(log))
	}
	return nil
}

// archiveArg in an archive step's arguments is replaced by the archive.
const archiveArg = "@ARCHIVE@"

// compareArchives runs each step on archive theirs and on archive ours,
// with bed p's environment, and reports each whose output differs.
func compareArchives(t *testing.T, p *testbed.PMCD, py, dir, theirs, ours string, steps []step) {
	t.Helper()
	for _, s := range steps {
		var out [2]string
		for i, a := range []string{theirs, ours} {
			s := s
			s.args = append([]string(nil), s.args...)
			for j, arg := range s.args {
				s.args[j] = strings.ReplaceAll(arg, archiveArg, a)
			}
			start := time.Now()
			text, err := run(p, py, dir, s)
			if testing.Verbose() {
				t.Logf("%v %s", time.Since(start).Round(time.Millisecond), strings.Join(s.args, " "))
			}
			if err != nil {
				t.Fatal(err)
			}
			out[i] = strings.ReplaceAll(text, a, "ARCHIVE")
		}
		if out[0] != out[1] {
			t.Errorf("%s: %s", strings.Join(s.args, " "), clitest.Diff(out[0], out[1]))
		}
	}
}

// Masks of pmdumplog -a: the logger's process id (the instance of the
// preamble's pmcd.pmlogger metrics) and port, pmcd's process id, and the
// index's offsets into the metadata file, which holds the agents' help
// text (ours in our own words).
var (
	loggerPIDRE = regexp.MustCompile(`(?m)(PID for pmlogger: |^\s+|inst \[)\d+ or "\d+"|PID for pmlogger: \d+`)
	preambleRE  = regexp.MustCompile(`(?m)^(\s+2\.(0\.23 \(pmcd\.pid\)|3\.0 \(pmcd\.pmlogger\.port\)).*value ).*$`)
	indexRE     = regexp.MustCompile(`(?m)^(TIME\s+\d+\s+)\d+(\s+\d+)$`)
)

// maskSummary hides pmlogsummary's values of pmcd's preamble metrics:
// the logger's port and process id, and pmcd's process id.
var summaryRE = regexp.MustCompile(`(?m)^(pmcd\.(pid|pmlogger\.port)) .*$`)

func maskSummary(s string) string { return summaryRE.ReplaceAllString(s, "${1} N") }

// maskDiff hides pmdiff's values of pmcd.pid.
var diffRE = regexp.MustCompile(`(?m)^.*pmcd\.pid$`)

func maskDiff(s string) string { return diffRE.ReplaceAllString(s, "pmcd.pid") }

func maskDump(s string) string {
	s = loggerPIDRE.ReplaceAllString(s, "${1}PID")
	s = preambleRE.ReplaceAllString(s, "${1}N")
	return indexRE.ReplaceAllString(s, "${1}META${2}")
}

// TestPCPLoggerFromPMCD records with PCP's pmlogger from PCP's pmcd and
// from ours, both fresh, and wants PCP's pmdumplog to print the same of
// both archives, and PCP's python PMAPI to see the same.
func TestPCPLoggerFromPMCD(t *testing.T) {
	t.Parallel()
	py := python(t)
	b := startBeds(t, false)
	dir := t.TempDir()
	errs := make(chan error, 2)
	go func() { errs <- record(b.theirs, "", dir, "pcp/arch") }()
	go func() { errs <- record(b.ours, "", dir, "our/arch") }()
	if err := errors.Join(<-errs, <-errs); err != nil {
		t.Fatal(err)
	}
	compareArchives(t, b.theirs, py, dir, "pcp/arch", "our/arch", []step{
		{args: []string{"pmdumplog", "-a", archiveArg}, mask: maskDump},
		{args: []string{"testdata/pmapi.py", "archive", archiveArg}},
	})
}

// TestToolsOnOurArchive records with PCP's pmlogger and with ours, each
// from a fresh PCP pmcd (the sample agent's event records follow the
// fetches it had), and wants PCP's archive tools to print the same of
// both archives; pmlogextract's copy of each is read by our pmdumplog as
// PCP's reads it.
func TestToolsOnOurArchive(t *testing.T) {
	t.Parallel()
	py := python(t)
	opts := testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(), testbed.SampleAgent()}}
	theirs, ours := testbed.StartPMCD(t, opts), testbed.StartPMCD(t, opts)
	ourLogger := pcptest.GoCommand(t, "../cmd/pmlogger")
	ourDumplog := pcptest.GoCommand(t, "../cmd/pmdumplog")
	dir := t.TempDir()
	errs := make(chan error, 2)
	go func() { errs <- record(theirs, "", dir, "pcp/arch") }()
	go func() { errs <- record(ours, ourLogger, dir, "our/arch") }()
	if err := errors.Join(<-errs, <-errs); err != nil {
		t.Fatal(err)
	}
	p := theirs
	compareArchives(t, p, py, dir, "pcp/arch", "our/arch", []step{
		{args: []string{"pmdumplog", "-a", archiveArg}, mask: maskDump},
		{args: []string{"pmlogcheck", "-v", archiveArg}},
		{args: []string{"pmloglabel", "-l", archiveArg}},
		{args: []string{"pmlogsummary", archiveArg}, mask: maskSummary},
		{args: []string{"pmlogsummary", "-x", "-I", archiveArg}, mask: maskSummary},
		{args: []string{"pmlogsize", "-r", archiveArg}},
		{args: []string{"pmlogsize", "-d", archiveArg}},
		// A count of samples, not the archive's span, which follows the
		// machine's load.
		{args: []string{"pmval", "-a", archiveArg, "-t", "0.1", "-s", "3", "-i", "bin-200,bin-700", "sample.bin"}},
		{args: []string{"pmval", "-a", archiveArg, "-t", "0.1", "-s", "3", "-r", "sample.long.bin_ctr"}},
		{args: []string{"pmrep", "-a", archiveArg, "-t", "0.1", "-s", "3", "-o", "csv", "sample.long", "sample.string.hullo", "sample.bin"}},
		{args: []string{"pmrep", "-a", archiveArg, "-u", "-o", "csv", "sample.long", "sample.string.hullo", "sample.bin"}},
		// PCP's pmdiff has awk divide by zero on every archive here.
		{args: []string{"pmdiff", "-q", "0", archiveArg, archiveArg}, mask: maskDiff},
		{args: []string{"testdata/pmapi.py", "archive", archiveArg}},
		{args: []string{"pmlogextract", "-c", "/dev/null", archiveArg, archiveArg + "-x"}},
		{args: []string{"pmdumplog", "-a", archiveArg + "-x"}, mask: maskDump},
	})
	// Our pmdumplog on PCP's extract of our archive.
	for _, name := range []string{"pcp/arch-x", "our/arch-x"} {
		arch := filepath.Join(dir, name)
		want := p.Run("pmdumplog", "-a", arch)
		out, err := exec.Command(ourDumplog, "-a", arch).CombinedOutput()
		if want.Err != nil || err != nil {
			t.Fatalf("%s: %v %v\n%s", name, want.Err, err, out)
		}
		if got := string(out); got != want.Stdout {
			t.Errorf("pmdumplog -a %s: %s", name, clitest.Diff(want.Stdout, got))
		}
	}
}
