// Package godeps lists what a package links, for tests that keep a
// program or library from depending on packages it must not carry (their
// code and initialisation cost every run's start-up and memory).
package godeps

import (
	"os/exec"
	"strings"
	"testing"
)

// Of is every package the package in dir depends on, itself included, as
// `go list -deps` gives them. The test is skipped when there is no go
// command to ask.
func Of(t testing.TB, dir string) []string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to list the imports")
	}
	cmd := exec.Command("go", "list", "-deps", ".")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps in %s: %v", dir, err)
	}
	return strings.Fields(string(out))
}
