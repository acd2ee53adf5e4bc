package testbed

import (
	"os"
	"testing"
)

// TestMain removes, once every test has run, the pmcd the test beds built
// for this process.
func TestMain(m *testing.M) { os.Exit(Main(m)) }
