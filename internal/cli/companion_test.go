package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFindCompanion finds pmdalocal in $PATH (a test binary has none
// beside it), and says where it looked when there is none.
func TestFindCompanion(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PATH", dir)
	self, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	_, err = findCompanion()
	if want := "pmdalocal (gopcp's agents for local contexts) is neither beside " + self + " nor in $PATH"; err == nil || err.Error() != want {
		t.Errorf("no companion: %v, want %q", err, want)
	}
	bin := filepath.Join(dir, "pmdalocal")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := findCompanion(); got != bin || err != nil {
		t.Errorf("findCompanion() = %q, %v; want %q", got, err, bin)
	}
	if strings.HasPrefix(self, dir) {
		t.Fatal("the test binary is in the test's own directory")
	}
}
