package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestLabelHostAgainstPCP gives PCP's pmlogger and ours -H host names
// and compares the labels PCP's pmdumplog -l prints of both archives:
// an empty name is written empty, and a long one is cut to what a
// version 2 label holds, in version 3 archives too.
func TestLabelHostAgainstPCP(t *testing.T) {
	t.Parallel()
	p := testbed.StartPMCD(t, testbed.Options{})
	bin := pcptest.GoCommand(t, ".")
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config")
	if err := os.WriteFile(cfg, []byte("log mandatory on 100 msec { sample.long.one }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(p.Env(), "PMLOGGER_PORT="+strconv.Itoa(freePortBase(t)))
	long := strings.Repeat("h", 70)
	times := regexp.MustCompile(`(?m)^(\s+(commencing|ending)).*$`)
	for i, args := range [][]string{
		{"-H", ""},
		{"-H", long},
		{"-V", "3", "-H", long},
		{"-V", "3", "-H", "a.b"},
	} {
		label := func(pcp bool) string {
			base := filepath.Join(dir, strconv.Itoa(i)+strconv.FormatBool(pcp)[:1])
			recordArchive(t, p, bin, env, pcp, base, append(args, "-h", p.Host(), "-c", cfg, "-s", "1", "-l", base+".log", base)...)
			r := p.Run("pmdumplog", "-l", base)
			return times.ReplaceAllString(strings.ReplaceAll(r.Stdout+r.Stderr, base, "ARCHIVE"), "$1")
		}
		if want, got := label(true), label(false); want != got {
			t.Errorf("pmlogger %q: PCP's pmdumplog -l\nof PCP's archive:\n%s\nof ours:\n%s", args, want, got)
		}
	}
}
