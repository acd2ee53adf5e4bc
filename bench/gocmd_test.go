package bench

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// ourCommand is this tree's command name, built once per test binary as
// README installs it, or the one of that name in the directory the
// environment variable prebuilt names (another build, to time against).
func ourCommand(t *testing.T, prebuilt, name string) string {
	t.Helper()
	if dir := os.Getenv(prebuilt); dir != "" {
		return filepath.Join(dir, name)
	}
	var b pcptest.Build
	if !installedWithCgo[name] {
		b.Env = []string{"CGO_ENABLED=0"}
	}
	return pcptest.GoCommandWith(t, "../cmd/"+name, b)
}

// installedWithCgo are the daemons README installs with cgo, for the
// system's name service (user, group and host names through NSS, as
// PCP's); it installs every other command with CGO_ENABLED=0, which
// starts faster and smaller, so that is how they are timed against PCP's.
var installedWithCgo = map[string]bool{
	"pmcd": true, "pmlogger": true, "pmdalinux": true, "pmdaproc": true, "pmdatrace": true,
}
