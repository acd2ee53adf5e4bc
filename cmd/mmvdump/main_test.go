package main

import (
	"os"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// TestMain removes the harnesses the tests built once every test has run.
func TestMain(m *testing.M) { os.Exit(pcptest.Main(m)) }
