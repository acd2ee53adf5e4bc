package pmda

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
)

// NewFunc builds an in-process agent for the given domain number. It is
// what the registry holds in place of the shared object and entry point a
// PCP "dso" agent line names.
type NewFunc func(domain uint32) (*Agent, error)

// registry maps PCP dso entry point names ("trivial_init", "sample_init",
// ...) to the Go constructors that stand in for them. An entry whose
// constructor is nil was removed: it hides a builtin one of that name.
var registry struct {
	sync.RWMutex
	m map[string]NewFunc
}

// builtinTable is the table SetBuiltin installs, consulted after
// registry.
type builtinTable struct {
	lookup func(entry string) (NewFunc, bool)
	names  []string
}

var builtin atomic.Pointer[builtinTable]

// SetBuiltin installs a fixed table of in-process agents beneath the
// registry: lookup gives the constructor for each of names. Register's
// entries take precedence, and removing one with Register hides the
// builtin of that name. It is meant for one init function (package
// agents/all's): it is one small allocation and an atomic store, so that
// a program linking every agent runs none of pmda's code for them at
// start-up, where Register would build its map whether the program ever
// runs an agent or not.
func SetBuiltin(lookup func(entry string) (NewFunc, bool), names []string) {
	builtin.Store(&builtinTable{lookup, names})
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
	if registry.m == nil {
		registry.m = make(map[string]NewFunc)
	}
	registry.m[entry] = newAgent // nil: removed, hiding a builtin too
}

// Lookup returns the constructor registered under entry, if any. It is
// safe for concurrent use.
func Lookup(entry string) (NewFunc, bool) {
	registry.RLock()
	f, ok := registry.m[entry]
	registry.RUnlock()
	if ok {
		return f, f != nil
	}
	if b := builtin.Load(); b != nil {
		return b.lookup(entry)
	}
	return nil, false
}

// Registered lists the registered entry point names in sorted order. It is
// safe for concurrent use.
func Registered() []string {
	var builtinNames []string
	if b := builtin.Load(); b != nil {
		builtinNames = b.names
	}
	registry.RLock()
	names := make([]string, 0, len(registry.m)+len(builtinNames))
	for name, f := range registry.m {
		if f != nil {
			names = append(names, name)
		}
	}
	for _, name := range builtinNames {
		if _, ok := registry.m[name]; !ok {
			names = append(names, name)
		}
	}
	registry.RUnlock()
	slices.Sort(names)
	return slices.Compact(names)
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
