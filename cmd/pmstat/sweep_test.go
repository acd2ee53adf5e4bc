package main

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestSweep compares pmstat with PCP's on random command lines over the
// QA archives, mostly those that hold the metrics pmstat reports:
// random intervals, sample counts, time windows, zones, -x and -l.
// GOPCP_SWEEP sets the number of cases, GOPCP_SWEEP_SEED repeats a run.
func TestSweep(t *testing.T) {
	s := clitest.NewSweep(t, 30)
	cases := make([]clitest.Case, 0, s.N)
	for i := range s.N {
		arch := s.Archive()
		for try := 0; try < 6 && !s.Maybe(5); try++ {
			if slices.Contains(s.Names(t, arch), "kernel.all.load") {
				break
			}
			arch = s.Archive()
		}
		g := [][]string{{"-a", arch}, {"-s", strconv.Itoa(1 + s.IntN(8))}}
		if !s.Maybe(4) {
			g = append(g, []string{"-t", s.Interval()})
		}
		g = append(g, s.Window()...)
		if s.Maybe(4) {
			g = append(g, []string{"-x"})
		}
		if s.Maybe(6) {
			g = append(g, []string{"-l"})
		}
		if s.Maybe(12) {
			g = append(g, s.Extra(arch))
		}
		g = s.Spell(g, map[string]string{"-x": "--xcpu", "-l": "--suffix"})
		args := s.Shuffled(g)
		if s.Maybe(30) {
			args = append(args, "extra")
		}
		cases = append(cases, clitest.Case{Name: fmt.Sprint(i), Args: args, Mask: maskNow})
	}
	clitest.CompareLocal(t, "pmstat", func(ctx context.Context, argv []string, stdout, stderr io.Writer) int {
		return run(ctx, argv, stdout, stderr, func(time.Duration) {})
	}, cases)
}

var nowStampLine = regexp.MustCompile(`(?m)^@ [A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9]\d \d\d:\d\d:\d\d (\d{4})$`)

// maskNow blanks the "@ time" lines that show the present (pmstat's
// first line when the window starts after the archive's last record),
// which two runs print a moment apart.
func maskNow(s string) string {
	year := fmt.Sprint(time.Now().Year())
	return nowStampLine.ReplaceAllStringFunc(s, func(l string) string {
		if l[len(l)-4:] == year {
			return "@ NOW"
		}
		return l
	})
}
