package bench

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// ourCommand is this tree's command name, built once per test binary, or
// the one of that name in the directory the environment variable
// prebuilt names (another build, to time against).
func ourCommand(t *testing.T, prebuilt, name string) string {
	t.Helper()
	if dir := os.Getenv(prebuilt); dir != "" {
		return filepath.Join(dir, name)
	}
	return pcptest.GoCommand(t, "../cmd/"+name)
}
