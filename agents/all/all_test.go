package all

import (
	"testing"

	"github.com/gopcp/gopcp/pmda"
)

// TestRegistered checks that every agent file here registers an agent that
// builds.
func TestRegistered(t *testing.T) {
	// The in-process trace agent listens for programs when built: on a
	// port of the system's choosing here, never PCP's 4323, which a
	// real pmdatrace beside this test may want.
	t.Setenv("PCP_TRACE_PORT", "0")
	names := pmda.Registered()
	if len(names) == 0 {
		t.Fatal("no agents registered")
	}
	for _, entry := range names {
		a, err := pmda.NewRegistered(entry, 250)
		if err != nil || a == nil {
			t.Errorf("%s: %v", entry, err)
		}
	}
}
