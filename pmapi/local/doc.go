// Package local is PCP's PM_CONTEXT_LOCAL for package pmapi: a Context
// whose agents run in this process, called directly with no pmcd, with
// names from the local namespace. The agents are the pmda registry's,
// found by the entry points of pmcd.conf's "dso" lines as changed by -K
// specifications (Table). An agent of package agents/all that the
// program does not link (PCP's tools here do not: the agents' pages
// would be resident in every archive replay) runs instead in a process
// of Companion, given by WithCompanion, asked over a pipe as pmcd asks
// a pipe agent, with the same answers, errors and warnings; it ends
// with the context, or with the program if that ends first. A table and a namespace of the caller's
// (WithTable, WithNamespace) need neither pmcd nor PCP's files: see the
// example of NewContext. Agents that cannot start, and PCP's C shared
// objects (which it cannot load), are skipped, with libpcp's warnings
// where libpcp would warn, sent only where WithWarnings sends them.
//
// A Context has pmapi.Source's methods, so tools and libraries that take
// a Source work on it as on host and archive contexts. It is a package
// of its own so that a client of hosts and archives, importing only
// pmapi, does not link the agent framework (pmda) and its agents.
package local
