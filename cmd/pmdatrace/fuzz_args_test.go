package main

import (
	"io"
	"strings"
	"testing"

	atrace "github.com/gopcp/gopcp/agents/trace"
)

// FuzzParseArgs: any command line, its arguments split at NULs, is read
// without a panic, and what an -A is given passes CheckAccess.
func FuzzParseArgs(f *testing.F) {
	f.Add("-A\x00allow:h\x00-l\x00x")
	f.Add("-Aallow:h\x007")
	f.Add("-N\x003\x00-T\x001 min\x00-U\x001,2,3,4,5,6")
	f.Add("-A\x00allow:h")
	f.Fuzz(func(t *testing.T, s string) {
		argv := append([]string{"/p/pmdatrace"}, strings.Split(s, "\x00")...)
		cfg, ok := parseArgs("pmdatrace", argv, []string{"A=1"}, io.Discard)
		if !ok {
			return
		}
		for _, spec := range cfg.agent.Access {
			if err := atrace.CheckAccess(spec); err != nil {
				t.Fatalf("%q kept: %v", spec, err)
			}
		}
	})
}
