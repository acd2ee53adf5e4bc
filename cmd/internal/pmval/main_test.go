package pmval

import (
	"os"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestMain removes, once every test has ended, the directories built for
// the tests (the fake clock's shim, see clitest.FakeClock), which no one
// test's cleanup can remove.
func TestMain(m *testing.M) { os.Exit(testbed.Main(m)) }
