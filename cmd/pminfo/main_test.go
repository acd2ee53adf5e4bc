package main

import (
	"os"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestMain removes the pmcd the tests built once every test has run.
func TestMain(m *testing.M) { os.Exit(testbed.Main(m)) }
