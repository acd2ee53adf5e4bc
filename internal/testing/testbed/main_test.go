package testbed

import (
	"os"
	"testing"
)

// TestMain removes, once every test has run, the pmcd the test beds built
// for this process. Started by a ports test as its second process, the
// binary plays that part instead of running the tests.
func TestMain(m *testing.M) {
	if mode := os.Getenv(portsChildEnv); mode != "" {
		os.Exit(portsChild(mode))
	}
	os.Exit(Main(m))
}
