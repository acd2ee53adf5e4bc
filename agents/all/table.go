package all

import "github.com/gopcp/gopcp/pmda"

// entries are the entry points of the agents here, sorted.
var entries = [...]string{
	"linux_init", "mmv_init", "pmproxy_init", "proc_init",
	"sample_init", "simple_init", "trace_init", "trivial_init",
}

// lookup is the constructor of each entry point. A switch and a static
// array rather than a Register call per agent: the one init function
// below then allocates the table's header and stores a pointer to it, so
// a program that links the agents for -L runs none of their code, nor
// the registry's, until it looks one up.
func lookup(entry string) (pmda.NewFunc, bool) {
	switch entry {
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

func init() { pmda.SetBuiltin(lookup, entries[:]) }
