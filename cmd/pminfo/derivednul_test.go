package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestDerivedNULAgainstPCP: a NUL byte in a derived metric configuration
// line (testdata/derived-nul, one placement a file) ends the part of the
// line libpcp reads it in; pminfo -c's messages, names, help and values
// are compared with PCP's pminfo. A NUL before an attribute's '(' is left
// out: libpcp then reads its copy of the line past its end.
func TestDerivedNULAgainstPCP(t *testing.T) {
	files, err := filepath.Glob("testdata/derived-nul/*.conf")
	if err != nil || len(files) < 15 {
		t.Fatalf("testdata/derived-nul: %d files, %v", len(files), err)
	}
	archive := clitest.QAArchive(t, "20041125")
	var cases []clitest.Case
	for _, f := range files {
		abs, err := filepath.Abs(f)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(f), ".conf")
		for _, opt := range []string{"-tf", "-T"} {
			cases = append(cases, clitest.Case{
				Name: name + " " + opt,
				Args: []string{"-a", archive, "-c", abs, opt, "n"},
				Env:  []string{"PCP_DERIVED_CONFIG="},
			})
		}
	}
	clitest.CompareLocal(t, "pminfo", run, cases)
}
