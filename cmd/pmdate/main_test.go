package main

import (
	"os"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// TestMain removes the preload library built for the tests.
func TestMain(m *testing.M) { os.Exit(pcptest.Main(m)) }
