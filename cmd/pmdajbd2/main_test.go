package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestMain removes, once every test has run, the pmcd the test beds built
// for this process.
func TestMain(m *testing.M) { os.Exit(testbed.Main(m)) }

// pcpJBD2 is PCP's jbd2 agent as installed: the file of it named (the
// daemon, pmdajbd2, or the shared object, pmda_jbd2.so) and its namespace,
// PCP's root_jbd2. Without them the test is skipped as PCP missing.
func pcpJBD2(t *testing.T, in *testbed.Install, file string) (path, pmns string) {
	t.Helper()
	path = filepath.Join(in.Var("PCP_PMDAS_DIR"), "jbd2", file)
	pmns = filepath.Join(in.Var("PCP_VAR_DIR"), "pmns", "root_jbd2")
	for _, p := range []string{path, pmns} {
		if _, err := os.Stat(p); err != nil {
			pcptest.Missing(t, "PCP's jbd2 agent: "+err.Error())
		}
	}
	return path, pmns
}
