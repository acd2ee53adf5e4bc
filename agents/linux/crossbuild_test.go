package linux

import (
	"os"
	"os/exec"
	"testing"
)

// TestBuildsForOtherArchitectures type-checks the agent and its command
// for the 64-bit architectures it is meant to run on, whichever one the
// test runs on: system call numbers differ between them (arm64 has no
// stat(2), for one) and only a build for each shows a missing one.
func TestBuildsForOtherArchitectures(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the agent's dependencies for each architecture")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command to build with: %v", err)
	}
	for _, arch := range []string{"amd64", "arm64"} {
		t.Run(arch, func(t *testing.T) {
			cmd := exec.Command(goBin, "vet", ".", "../../cmd/pmdalinux")
			cmd.Env = append(os.Environ(), "GOOS=linux", "GOARCH="+arch, "CGO_ENABLED=0")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("GOARCH=%s go vet: %v\n%s", arch, err, out)
			}
		})
	}
}
