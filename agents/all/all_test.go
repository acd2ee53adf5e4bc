package all

import (
	"slices"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/agents/all/entries"
	"github.com/gopcp/gopcp/internal/testing/goroutines"
	"github.com/gopcp/gopcp/pmda"
)

// TestRegistered checks that every agent file here registers an agent that
// builds, and that closing it (pmda.Agent.Close, as its owner does) leaves
// no goroutine running the agents' code.
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
			continue
		}
		if err := a.Close(); err != nil {
			t.Errorf("%s: Close: %v", entry, err)
		}
		if g := agentGoroutines(); g != "" {
			t.Errorf("%s: goroutines left after Close:\n%s", entry, g)
		}
	}
}

// agentGoroutines is the stacks of the goroutines with a frame in an
// agent package's code, the caller's left out.
func agentGoroutines() string {
	var out strings.Builder
	for _, g := range goroutines.Left("github.com/gopcp/gopcp/agents/") {
		out.WriteString(g + "\n\n")
	}
	return out.String()
}

// TestTable checks that the entry list is sorted and that each entry,
// and nothing else, has a constructor.
func TestTable(t *testing.T) {
	names := entries.Names()
	if !slices.IsSorted(names) {
		t.Errorf("entries not sorted: %q", names)
	}
	for _, e := range names {
		if !entries.Has(e) {
			t.Errorf("entries.Has(%q) is false", e)
		}
		if f, ok := lookup(e); !ok || f == nil {
			t.Errorf("%s: no constructor", e)
		}
	}
	if _, ok := lookup("nosuch_init"); ok {
		t.Error("nosuch_init has a constructor")
	}
	if entries.Has("nosuch_init") {
		t.Error("entries.Has(nosuch_init)")
	}
	if got := pmda.Registered(); !slices.Equal(got, names) {
		t.Errorf("pmda.Registered() = %q, want %q", got, names)
	}
}
