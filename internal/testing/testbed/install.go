package testbed

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/gopcp/gopcp/internal/pcpconf"
)

// ErrNotInstalled reports that PCP, or a part of it a test bed needs, is
// missing from this machine. StartPMCD turns it into a skip unless
// GOPCP_REQUIRE_PCP=1.
var ErrNotInstalled = errors.New("testbed: PCP is not installed")

// RequireEnv names the environment variable that turns a missing PCP from
// a skipped test into a failed one; CI sets it to 1.
const RequireEnv = "GOPCP_REQUIRE_PCP"

// Install describes the PCP installation found on this machine.
type Install struct {
	// ConfPath is the pcp.conf that was read.
	ConfPath string
	// PMCD is the path of the pmcd binary.
	PMCD string

	vars map[string]string
}

// Var returns a pcp.conf variable such as PCP_VAR_DIR, with the
// environment taking precedence as in libpcp.
func (in *Install) Var(name string) string { return in.vars[name] }

// Tool returns the path of a PCP program, looking where PCP installs its
// user tools, then its administrative ones, then $PATH.
func (in *Install) Tool(name string) (string, error) {
	if filepath.IsAbs(name) {
		return name, checkExec(name)
	}
	for _, dir := range []string{in.Var("PCP_BIN_DIR"), in.Var("PCP_BINADM_DIR")} {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, name)
		if checkExec(p) == nil {
			return p, nil
		}
	}
	p, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("%w: no %s: %v", ErrNotInstalled, name, err)
	}
	return p, nil
}

// expand replaces $PCP_* references in s with this installation's values.
func (in *Install) expand(s string) string {
	return os.Expand(s, in.Var)
}

func checkExec(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotInstalled, err)
	}
	if st.IsDir() || st.Mode().Perm()&0o111 == 0 {
		return fmt.Errorf("%w: %s is not executable", ErrNotInstalled, path)
	}
	return nil
}

// pmcdCandidates lists where pmcd may live: under PCP_BINADM_DIR first,
// then the locations used by the common distributions.
var pmcdCandidates = []string{
	"$PCP_BINADM_DIR/pmcd",
	"/usr/libexec/pcp/bin/pmcd",
	"/usr/lib/pcp/bin/pmcd",
}

// requiredTools are the PCP programs every test bed uses: pminfo to check
// readiness, pmnsmerge to build the private namespace and newhelp to build
// help text for agents that ship only its source.
var requiredTools = []string{"pminfo", "pmnsmerge", "newhelp"}

var (
	findOnce   sync.Once
	findResult *Install
	findErr    error
)

// Find locates PCP. The answer is computed once per process.
func Find() (*Install, error) {
	findOnce.Do(func() { findResult, findErr = find() })
	return findResult, findErr
}

func find() (*Install, error) {
	vars, path, err := pcpconf.Load()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotInstalled, err)
	}
	in := &Install{ConfPath: path, vars: vars}
	for _, c := range pmcdCandidates {
		p := in.expand(c)
		if filepath.IsAbs(p) && checkExec(p) == nil {
			in.PMCD = p
			break
		}
	}
	if in.PMCD == "" {
		return nil, fmt.Errorf("%w: no pmcd binary (looked in PCP_BINADM_DIR=%q)",
			ErrNotInstalled, in.Var("PCP_BINADM_DIR"))
	}
	for _, tool := range requiredTools {
		if _, err := in.Tool(tool); err != nil {
			return nil, err
		}
	}
	return in, nil
}

// Need returns the PCP installation, or ends the test: skipped when PCP
// is missing, failed when GOPCP_REQUIRE_PCP=1.
func Need(t testing.TB) *Install {
	t.Helper()
	in, err := Find()
	if err != nil {
		missing(t, err)
	}
	return in
}

// missing ends a test whose PCP prerequisites are absent.
func missing(t testing.TB, err error) {
	t.Helper()
	if os.Getenv(RequireEnv) == "1" {
		t.Fatalf("%v (and %s=1)", err, RequireEnv)
	}
	t.Skipf("skipping: %v", err)
}
