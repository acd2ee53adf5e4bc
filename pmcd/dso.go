package pmcd

import (
	"github.com/gopcp/gopcp/pmda"
)

// RegisterDSO makes an in-process agent available to pmcd.conf lines of
// the form "name domain dso ENTRY path": where PCP's pmcd would load the
// shared object and call ENTRY, this pmcd calls newAgent with the line's
// domain and serves the agent by calling its methods directly. The path is
// not opened. It is pmda.Register under another name: the registry is
// shared with local contexts, and importing package agents/all registers
// every gopcp agent. A later registration of the same entry point replaces
// the earlier one. It is safe to call from init functions and concurrently.
func RegisterDSO(entry string, newAgent func(domain uint32) (*pmda.Agent, error)) {
	pmda.Register(entry, newAgent)
}

func lookupDSO(entry string) func(domain uint32) (*pmda.Agent, error) {
	f, _ := pmda.Lookup(entry)
	return f
}
