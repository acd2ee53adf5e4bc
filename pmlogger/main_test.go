package pmlogger

import (
	"os"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestMain removes the commands and harnesses the tests built once every
// test has run.
func TestMain(m *testing.M) { os.Exit(testbed.Main(m)) }
