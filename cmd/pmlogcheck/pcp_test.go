package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

func runMain(_ context.Context, argv []string, stdout, stderr io.Writer) int {
	return run(argv, stdout, stderr)
}

// TestAgainstPCP compares pmlogcheck with PCP's on its option errors
// and on the options that need the open archive: the zone notes of -z
// and -Z (stdout), the label's end after -T, pass 3 bounded by -S and -T
// (placed by the index and read with no skipping, so a window can start
// before -S), a bad time, -vvv's listing of the directory, -w, -n, and -D appl0 and appl2.
func TestAgainstPCP(t *testing.T) {
	foo := clitest.QAArchive(t, "ok-foo")
	mv := clitest.QAArchive(t, "ok-mv-foo")
	cases := []clitest.Case{
		{Name: "none", Args: nil},
		{Name: "verbose-none", Args: []string{"-v"}},
		{Name: "hostzone-none", Args: []string{"-z"}},
		{Name: "unknown", Args: []string{"-Q", foo}},
		{Name: "help", Args: []string{"--help"}},
		{Name: "hostzone-label", Args: []string{"-z", "-l", foo}},
		{Name: "zone-label", Args: []string{"-Z", "UTC", "-l", "-v", foo}},
		{Name: "zone-bad", Args: []string{"-Z", "no/such/zone", "-l", foo}},
		{Name: "window", Args: []string{"-S", "+1", "-T", "+2", "-v", foo}},
		{Name: "window-label", Args: []string{"-S", "+1", "-T", "+3", "-l", foo}},
		{Name: "start-late", Args: []string{"-S", "+10000", foo}},
		{Name: "finish-early", Args: []string{"-T", "-100", "-v", foo}},
		{Name: "start-bad", Args: []string{"-S", "@junk", "-v", foo}},
		{Name: "finish-bad", Args: []string{"-T", "junk", foo}},
		{Name: "window-mv", Args: []string{"-S", "+5", "-T", "+20", "-v", "-l", mv}},
		{Name: "debug-list", Args: []string{"-vvv", mv}},
		{Name: "two-operands", Args: []string{"-v", foo, mv}},
		{Name: "missing", Args: []string{"/nonexistent/archive"}},
		{Name: "nowrap", Args: []string{"-w", clitest.QAArchive(t, "spotinstance")}},
		{Name: "wrap", Args: []string{clitest.QAArchive(t, "spotinstance")}},
		// each record of every volume is named with the volume the
		// placing chose (libpcp's ac_vol), not its own
		{Name: "debug-records", Args: []string{"-D", "appl0", mv}},
		{Name: "debug-records-window", Args: []string{"-D", "appl0", "-S", "+2", mv}},
		{Name: "debug-counters", Args: []string{"-D", "appl2,appl0", clitest.QAArchive(t, "spotinstance")}},
		{Name: "debug-env", Args: []string{foo}, Env: []string{"PCP_DEBUG=appl0"}},
	}
	clitest.CompareLocal(t, "pmlogcheck", runMain, cases)
}

// TestSweep compares pmlogcheck with PCP's on random command lines over
// every QA archive: -v, -m, -l, a zone and a time window in the forms
// users type. GOPCP_SWEEP sets the number of cases, GOPCP_SWEEP_SEED
// repeats a run.
func TestSweep(t *testing.T) {
	s := clitest.NewSweep(t, 30)
	flags := []string{"-v", "-m", "-l", "-w", "-Dappl0", "-Dappl2"}
	cases := make([]clitest.Case, 0, s.N)
	for i := range s.N {
		arch := s.Archive()
		var g [][]string
		for range s.IntN(3) {
			g = append(g, []string{s.Pick(flags...)})
		}
		for _, w := range s.Window() {
			if w[0] == "-O" || w[0] == "-A" {
				continue // not pmlogcheck's
			}
			g = append(g, w)
		}
		if s.Maybe(4) {
			g = append(g, s.Zone())
		}
		if s.Maybe(10) {
			g = append(g, []string{"-n", filepath.Join(clitest.QAArchives, "bigace.pmns")})
		}
		g = s.Spell(g, map[string]string{"-v": "--verbose", "-m": "--metadataonly", "-l": "--label", "-w": "--nowrap"})
		args := append(s.Shuffled(g), arch)
		cases = append(cases, clitest.Case{Name: fmt.Sprint(i), Args: args})
	}
	clitest.CompareLocal(t, "pmlogcheck", runMain, cases)
}
