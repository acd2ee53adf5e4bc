package pmcd

import (
	"sync"

	"github.com/gopcp/gopcp/pmda"
)

// dsoRegistry maps the entry points of pmcd.conf "dso" lines to the Go
// agents that run inside this pmcd in their place.
var dsoRegistry struct {
	sync.Mutex
	m map[string]func(domain uint32) (*pmda.Agent, error)
}

// RegisterDSO makes an in-process agent available to pmcd.conf lines of
// the form "name domain dso ENTRY path": where PCP's pmcd would load the
// shared object and call ENTRY, this pmcd calls newAgent with the line's domain and serves the
// agent by calling its methods directly. The path is not opened. A later
// registration of the same entry point replaces the earlier one. It is
// safe to call from init functions and concurrently.
func RegisterDSO(entry string, newAgent func(domain uint32) (*pmda.Agent, error)) {
	dsoRegistry.Lock()
	defer dsoRegistry.Unlock()
	if dsoRegistry.m == nil {
		dsoRegistry.m = make(map[string]func(domain uint32) (*pmda.Agent, error))
	}
	dsoRegistry.m[entry] = newAgent
}

func lookupDSO(entry string) func(domain uint32) (*pmda.Agent, error) {
	dsoRegistry.Lock()
	defer dsoRegistry.Unlock()
	return dsoRegistry.m[entry]
}
