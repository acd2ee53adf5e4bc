package pmda

import (
	"slices"
	"testing"
)

// TestBuiltin checks the table beneath the registry: found by Lookup and
// listed by Registered, overridden by Register, hidden by removing it.
func TestBuiltin(t *testing.T) {
	saved := builtin.Load()
	t.Cleanup(func() { builtin.Store(saved) })
	mk := func(name string) NewFunc {
		return func(domain uint32) (*Agent, error) {
			return New(Config{Name: name, Domain: domain, Fetcher: noValues})
		}
	}
	SetBuiltin(func(entry string) (NewFunc, bool) {
		switch entry {
		case "test_builtin_a_init":
			return mk("builtin a"), true
		case "test_builtin_b_init":
			return mk("builtin b"), true
		}
		return nil, false
	}, []string{"test_builtin_a_init", "test_builtin_b_init"})
	t.Cleanup(func() {
		registry.Lock()
		delete(registry.m, "test_builtin_a_init")
		delete(registry.m, "test_builtin_b_init")
		registry.Unlock()
	})

	names := Registered()
	if !slices.Contains(names, "test_builtin_a_init") || !slices.Contains(names, "test_builtin_b_init") || !slices.IsSorted(names) {
		t.Fatalf("Registered() = %q", names)
	}
	nameOf := func(entry string) string {
		a, err := NewRegistered(entry, 42)
		if err != nil {
			return "error: " + err.Error()
		}
		defer a.Close()
		return a.Name()
	}
	if got := nameOf("test_builtin_a_init"); got != "builtin a" {
		t.Errorf("builtin a: %q", got)
	}
	Register("test_builtin_a_init", mk("registered a"))
	if got := nameOf("test_builtin_a_init"); got != "registered a" {
		t.Errorf("registered over builtin a: %q", got)
	}
	Register("test_builtin_b_init", nil)
	if _, ok := Lookup("test_builtin_b_init"); ok {
		t.Error("removed builtin b is still found")
	}
	names = Registered()
	if slices.Contains(names, "test_builtin_b_init") || !slices.Contains(names, "test_builtin_a_init") {
		t.Errorf("Registered() = %q after override and removal", names)
	}
	if c := len(slices.Compact(slices.Clone(names))); c != len(names) {
		t.Errorf("Registered() = %q: duplicates", names)
	}
}
