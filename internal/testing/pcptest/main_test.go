package pcptest

import (
	"os"
	"testing"
)

// TestMain removes what GoCommand's tests built.
func TestMain(m *testing.M) { os.Exit(Main(m)) }
