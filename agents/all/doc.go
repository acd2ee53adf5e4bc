// Package all registers every gopcp in-process agent with the pmda
// registry (pmda.SetBuiltin) under the entry point name of PCP's matching
// DSO agent, such as "trivial_init" or "sample_init". Import it for its
// side effect:
//
//	import _ "github.com/gopcp/gopcp/agents/all"
//
// Then pmcd.conf "dso" lines and local contexts (PM_CONTEXT_LOCAL, the
// tools' -L and -K options) find the agents by entry name. Each agent has
// its own file here with its constructor; the package's one init function
// hands pmda the table of them (pmda.SetBuiltin), so that linking the
// agents costs a program nothing until it looks one up.
package all
