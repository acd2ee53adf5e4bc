package trace_test

import (
	"os"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestMain removes what the tests built once every test has run.
func TestMain(m *testing.M) { os.Exit(testbed.Main(m)) }
