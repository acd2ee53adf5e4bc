package all

import (
	"github.com/gopcp/gopcp/agents/all/entries"
	"github.com/gopcp/gopcp/pmda"
)

// lookup is the constructor of each entry point. A switch and a static
// array rather than a Register call per agent: the one init function
// below then allocates the table's header and stores a pointer to it, so
// a program that links the agents for -L runs none of their code, nor
// the registry's, until it looks one up.
func lookup(entry string) (pmda.NewFunc, bool) {
	switch entry {
	case "jbd2_init":
		return newJBD2, true
	case "linux_init":
		return newLinux, true
	case "mmv_init":
		return newMMV, true
	case "pmproxy_init":
		return newPMProxyMMV, true
	case "proc_init":
		return newProc, true
	case "sample_init":
		return newSample, true
	case "simple_init":
		return newSimple, true
	case "trace_init":
		return newTrace, true
	case "trivial_init":
		return newTrivial, true
	}
	return nil, false
}

func init() { pmda.SetBuiltin(lookup, entries.Names()) }
