package main

import (
	"os"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestMain removes, once every test has run, the pmcd the test beds built
// for this process.
func TestMain(m *testing.M) { os.Exit(testbed.Main(m)) }
