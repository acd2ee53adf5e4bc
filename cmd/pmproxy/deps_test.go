package main

import (
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/godeps"
)

// TestNoToolFramework keeps pmproxy from linking what its command line
// and host contexts do not need: internal/cli (pmGetOptions for the
// tools) and through it PM_CONTEXT_LOCAL's in-process agents (pmapi/local,
// pmda, pmns/dynamic, the agents) and debug/elf and debug/dwarf. PCP's
// pmproxy reads its options with pmgetopt_r, and "local:" in its host
// specifications is pmcd's Unix socket, never a local context; what is
// linked is mapped and initialised at every start.
func TestNoToolFramework(t *testing.T) {
	const gopcp = "github.com/gopcp/gopcp/"
	for _, pkg := range godeps.Of(t, ".") {
		switch {
		case pkg == gopcp+"internal/cli", pkg == gopcp+"pmapi/local", pkg == gopcp+"pmda",
			pkg == gopcp+"pmns/dynamic", strings.HasPrefix(pkg, gopcp+"agents"),
			pkg == "debug/elf", pkg == "debug/dwarf":
			t.Errorf("pmproxy depends on %s", pkg)
		}
	}
}
