package all

import (
	"testing"

	"github.com/gopcp/gopcp/pmda"
)

// TestRegistered checks that every agent file here registers an agent that
// builds.
func TestRegistered(t *testing.T) {
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
