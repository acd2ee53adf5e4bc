package pcptest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// IncludeDir is where PCP's development packages put their headers.
const IncludeDir = "/usr/include/pcp"

// C describes a C program to compile against PCP's libraries.
type C struct {
	// Src is the source file, relative to the test's package directory
	// or absolute.
	Src string
	// Out is the program to write.
	Out string
	// CFlags go before the source: optimisation, -I directories.
	CFlags []string
	// Libs go after the source, where a linker that drops unneeded
	// libraries (Debian's gcc) still sees them used; nil means -lpcp.
	Libs []string
	// Headers are the PCP headers the program needs, e.g. "pmda.h";
	// pmapi.h is always checked.
	Headers []string
}

// PMDA is C's Libs and Headers for a program built on libpcp_pmda.
var (
	PMDALibs    = []string{"-lpcp_pmda", "-lpcp"}
	PMDAHeaders = []string{"pmda.h"}
)

// headerPackage names the Debian package of a PCP header, for the
// message that skips or fails a test without it.
var headerPackage = map[string]string{
	"pmapi.h": "libpcp3-dev",
	"pmda.h":  "libpcp-pmda3-dev",
}

// NeedCompiler skips or fails t, as Missing says, without gcc or one of
// the PCP headers named (pmapi.h is always needed): PCP's development
// packages are part of "real PCP" for the tests that compile against it.
func NeedCompiler(t testing.TB, headers ...string) {
	t.Helper()
	if _, err := exec.LookPath("gcc"); err != nil {
		Missing(t, "gcc is not installed")
	}
	for _, h := range append([]string{"pmapi.h"}, headers...) {
		if _, err := os.Stat(filepath.Join(IncludeDir, h)); err != nil {
			pkg := headerPackage[h]
			if pkg == "" {
				pkg = "the package of " + h
			}
			Missing(t, pkg+" is not installed")
		}
	}
}

// Compile compiles c, after NeedCompiler. A program that does not compile
// where gcc and the headers are installed fails the test.
func Compile(t testing.TB, c C) {
	t.Helper()
	NeedCompiler(t, c.Headers...)
	src, err := filepath.Abs(c.Src)
	if err != nil {
		t.Fatal(err)
	}
	libs := c.Libs
	if libs == nil {
		libs = []string{"-lpcp"}
	}
	args := append(append(append([]string{}, c.CFlags...), "-o", c.Out, src), libs...)
	if out, err := exec.Command("gcc", args...).CombinedOutput(); err != nil {
		t.Fatalf("cannot compile %s: %v\n%s", c.Src, err, out)
	}
}
