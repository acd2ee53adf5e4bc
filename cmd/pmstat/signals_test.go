package main

import (
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// TestSignalsAgainstPCP: pmstat dies of every signal that ends PCP's, at
// each place it waits, and writes on past a reader that has gone, as
// PCP's pmstat does (clitest.CompareIntervalSignals).
func TestSignalsAgainstPCP(t *testing.T) {
	clitest.CompareIntervalSignals(t, "pmstat", pcptest.GoCommand(t, "."))
}
