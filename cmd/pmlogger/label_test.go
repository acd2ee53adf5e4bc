package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestLabelAgainstPCP compares the labels PCP's pmdumplog -L prints of
// PCP's pmlogger's archives and ours: -H's host names (an empty one is
// written empty, a long one cut to what a version 2 label holds, in
// version 3 archives too), and a local context's (-o) time zone, the
// local one as pmcd has none to give.
func TestLabelAgainstPCP(t *testing.T) {
	t.Parallel()
	p, bin, dir, env := recordBed(t)
	cfg, local := filepath.Join(dir, "config"), filepath.Join(dir, "local")
	for name, text := range map[string]string{cfg: "sample.long.one", local: "kernel.all.load"} {
		if err := os.WriteFile(name, []byte("log mandatory on 100 msec { "+text+" }\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	long := strings.Repeat("h", 70)
	times := regexp.MustCompile(`(?m)^(\s+(commencing|ending)|PID for pmlogger:).*$`)
	for i, args := range [][]string{
		{"-H", "", "-h", p.Host(), "-c", cfg},
		{"-H", long, "-h", p.Host(), "-c", cfg},
		{"-V", "3", "-H", long, "-h", p.Host(), "-c", cfg},
		{"-V", "3", "-H", "a.b", "-h", p.Host(), "-c", cfg},
		{"-o", "-c", local},
		{"-o", "-V", "3", "-c", local},
	} {
		label := func(pcp bool) string {
			base := filepath.Join(dir, strconv.Itoa(i)+strconv.FormatBool(pcp)[:1])
			recordArchive(t, p, bin, env, pcp, base, append(args, "-s", "1", "-l", base+".log", base)...)
			r := p.Run("pmdumplog", "-L", base)
			return times.ReplaceAllString(strings.ReplaceAll(r.Stdout+r.Stderr, base, "ARCHIVE"), "$1")
		}
		if want, got := label(true), label(false); want != got {
			t.Errorf("pmlogger %q: PCP's pmdumplog -L\nof PCP's archive:\n%s\nof ours:\n%s", args, want, got)
		}
	}
}
