package main

import (
	"context"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// linuxTools are PCP's monitoring tools built on the Linux agent's
// metrics, with arguments for two quick samples.
var linuxTools = [][]string{
	{"pmstat", "-s", "2", "-t", "0.5"},
	{"pcp-vmstat", "1", "2"},
	{"pcp-iostat", "-s", "2", "-t", "0.5"},
	{"pcp-dstat", "--nocolor", "1", "2"},
	{"pcp-free"},
	{"pcp-uptime"},
}

// pcpPython finds a python that has PCP's modules, for the pcp-* tools
// (pmpython runs $PCP_PYTHON_PROG).
func pcpPython(t *testing.T) string {
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(p, "-c", "from pcp import pmapi").Run() == nil {
			return p
		}
	}
	pcptest.Missing(t, "no python3 with PCP's modules (python3-pcp)")
	return ""
}

// Numbers (with their unit suffixes) and the spaces that align them vary
// between two runs; the rest of a tool's output (headings, column
// separators, labels) must not.
var (
	numbersRE = regexp.MustCompile(`[0-9]+(\.[0-9]+)?[kKMGTmB]?`)
	spacesRE  = regexp.MustCompile(`\s+`)
	runsRE    = regexp.MustCompile(`#+`)
)

// shape masks what varies in a tool's output.
func shape(out string) string {
	return runsRE.ReplaceAllString(spacesRE.ReplaceAllString(numbersRE.ReplaceAllString(out, "#"), ""), "#")
}

// runLinuxTool runs a tool against bed (PCP_HOST, as the pcp-* tools take
// no -h) and returns its output with numbers masked.
func runLinuxTool(t *testing.T, bed *testbed.PMCD, python string, args []string) (string, string) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd, err := bed.Command(ctx, args[0], args[1:]...)
	if err != nil {
		pcptest.Missing(t, err.Error())
	}
	cmd.Env = append(cmd.Env, "PCP_HOST="+bed.Host(), "PCP_PYTHON_PROG="+python)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", "exit: " + err.Error() + "\n" + string(out)
	}
	return shape(string(out)), string(out)
}

// testTools runs pmstat, pcp-vmstat, pcp-iostat, pcp-dstat, pcp-free and
// pcp-uptime against each pmcd: with our agent they must run and print the
// same headings and columns as with PCP's.
func testTools(t *testing.T, theirs, oursPipe, oursGo *testbed.PMCD) {
	python := pcpPython(t)
	for _, args := range linuxTools {
		t.Run(args[0], func(t *testing.T) {
			t.Parallel() // the tools mostly wait for their sampling intervals
			beds := []*testbed.PMCD{theirs, oursPipe, oursGo}
			shapes, outs := make([]string, 3), make([]string, 3)
			var wg sync.WaitGroup
			for i, bed := range beds {
				wg.Add(1)
				go func() {
					defer wg.Done()
					shapes[i], outs[i] = runLinuxTool(t, bed, python, args)
				}()
			}
			wg.Wait()
			if shapes[0] == "" || strings.Contains(outs[0], "Traceback") {
				t.Fatalf("%v fails with PCP's agent:\n%s", args, outs[0])
			}
			for i := 1; i < 3; i++ {
				if shapes[i] != shapes[0] {
					t.Errorf("%v (go pmcd %v):\nours:\n%s\nPCP's:\n%s", args, beds[i].IsGo(), outs[i], outs[0])
				}
			}
		})
	}
}
