package pmda

import (
	"fmt"
	"slices"
	"sync"
)

// NewFunc builds an in-process agent for the given domain number. It is
// what the registry holds in place of the shared object and entry point a
// PCP "dso" agent line names.
type NewFunc func(domain uint32) (*Agent, error)

// registry maps PCP dso entry point names ("trivial_init", "sample_init",
// ...) to the Go constructors that stand in for them.
var registry struct {
	sync.RWMutex
	m map[string]NewFunc
}

// Register makes an in-process agent available under a PCP dso entry point
// name, so that pmcd.conf "dso" lines, local contexts (PM_CONTEXT_LOCAL)
// and pmSpecLocalPMDA-style "add" specifications naming that entry get
// newAgent instead of a shared object. A later registration of the same
// entry replaces the earlier one; a nil newAgent removes it. Register is
// safe for concurrent use and meant to be called from init functions
// (package agents/all registers every gopcp agent).
func Register(entry string, newAgent NewFunc) {
	registry.Lock()
	defer registry.Unlock()
	if newAgent == nil {
		delete(registry.m, entry)
		return
	}
	if registry.m == nil {
		registry.m = make(map[string]NewFunc)
	}
	registry.m[entry] = newAgent
}

// Lookup returns the constructor registered under entry, if any. It is
// safe for concurrent use.
func Lookup(entry string) (NewFunc, bool) {
	registry.RLock()
	defer registry.RUnlock()
	f, ok := registry.m[entry]
	return f, ok
}

// Registered lists the registered entry point names in sorted order. It is
// safe for concurrent use.
func Registered() []string {
	registry.RLock()
	names := make([]string, 0, len(registry.m))
	for name := range registry.m {
		names = append(names, name)
	}
	registry.RUnlock()
	slices.Sort(names)
	return names
}

// NewRegistered builds the agent registered under entry for domain. An
// entry nobody registered is an error naming it, as a missing symbol is
// for PCP's dlsym.
func NewRegistered(entry string, domain uint32) (*Agent, error) {
	f, ok := Lookup(entry)
	if !ok {
		return nil, fmt.Errorf("pmda: no in-process agent registered for entry point %q", entry)
	}
	a, err := f(domain)
	if err != nil {
		return nil, fmt.Errorf("pmda: %s(domain %d): %w", entry, domain, err)
	}
	return a, nil
}
