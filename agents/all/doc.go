// Package all registers every gopcp in-process agent with the pmda
// registry (pmda.Register) under the entry point name of PCP's matching
// DSO agent, such as "trivial_init" or "sample_init". Import it for its
// side effect:
//
//	import _ "github.com/gopcp/gopcp/agents/all"
//
// Then pmcd.conf "dso" lines and local contexts (PM_CONTEXT_LOCAL, the
// tools' -L and -K options) find the agents by entry name. Each agent has
// its own file here whose init function registers it.
package all
