package pmda

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

func TestRegistry(t *testing.T) {
	errBoom := errors.New("boom")
	Register("test_registry_a_init", func(domain uint32) (*Agent, error) {
		return New(Config{Name: "a", Domain: domain, Fetcher: noValues})
	})
	Register("test_registry_b_init", func(uint32) (*Agent, error) { return nil, errBoom })
	t.Cleanup(func() {
		Register("test_registry_a_init", nil)
		Register("test_registry_b_init", nil)
	})

	names := Registered()
	if !slices.IsSorted(names) {
		t.Errorf("Registered() = %q, not sorted", names)
	}
	for _, want := range []string{"test_registry_a_init", "test_registry_b_init"} {
		if !slices.Contains(names, want) {
			t.Errorf("Registered() = %q, missing %q", names, want)
		}
	}

	tests := []struct {
		entry   string
		wantErr string
		is      error
	}{
		{entry: "test_registry_a_init"},
		{entry: "test_registry_b_init", wantErr: "test_registry_b_init(domain 77)", is: errBoom},
		{entry: "test_registry_none_init", wantErr: `no in-process agent registered for entry point "test_registry_none_init"`},
	}
	for _, tc := range tests {
		a, err := NewRegistered(tc.entry, 77)
		if tc.wantErr == "" {
			if err != nil || a == nil {
				t.Errorf("NewRegistered(%q) = %v, %v", tc.entry, a, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("NewRegistered(%q) error = %v, want %q", tc.entry, err, tc.wantErr)
		}
		if tc.is != nil && !errors.Is(err, tc.is) {
			t.Errorf("NewRegistered(%q) error = %v, not wrapping %v", tc.entry, err, tc.is)
		}
	}

	// Replacement and removal.
	Register("test_registry_b_init", func(domain uint32) (*Agent, error) {
		return New(Config{Name: "b", Domain: domain, Fetcher: noValues})
	})
	if _, err := NewRegistered("test_registry_b_init", 1); err != nil {
		t.Errorf("after replacement: %v", err)
	}
	Register("test_registry_b_init", nil)
	if _, ok := Lookup("test_registry_b_init"); ok {
		t.Error("Lookup after removal found the entry")
	}
}

var noValues = FetchFunc(func(context.Context, *Metric, int32) (pcp.Atom, error) {
	return pcp.Atom{}, pcp.ErrPMID
})
