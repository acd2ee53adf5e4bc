package main

import (
	"os"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestMain removes the pmcd and directories built for the tests.
func TestMain(m *testing.M) { os.Exit(testbed.Main(m)) }
