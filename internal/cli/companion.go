package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/gopcp/gopcp/pmapi/local"
)

// findCompanion is where a tool's local contexts find local.Companion,
// which runs the agents the tools do not link: beside the tool's own
// executable (go install puts them together), else in $PATH.
func findCompanion() (string, error) {
	self, err := os.Executable()
	if err == nil {
		p := filepath.Join(filepath.Dir(self), local.Companion)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	if p, err := exec.LookPath(local.Companion); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("%s (gopcp's agents for local contexts) is neither beside %s nor in $PATH", local.Companion, self)
}
