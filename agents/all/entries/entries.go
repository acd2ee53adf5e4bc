// Package entries names the entry points package agents/all registers,
// without linking the agents: a local context whose program does not
// link them (the replay tools) tells by this list which table entries
// the companion program pmdalocal can run and which name one of PCP's C
// shared objects.
package entries

import "slices"

// names are agents/all's entry points, sorted; agents/all's tests hold
// the two lists equal.
var names = [...]string{
	"jbd2_init", "linux_init", "mmv_init", "pmproxy_init", "proc_init",
	"sample_init", "simple_init", "trace_init", "trivial_init",
}

// Names returns the entry points, sorted.
func Names() []string { return slices.Clone(names[:]) }

// Has reports whether entry is one of them.
func Has(entry string) bool {
	_, found := slices.BinarySearch(names[:], entry)
	return found
}
