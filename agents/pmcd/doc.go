// Package pmcd is pmcd's own agent (pmcd.conf's "pmcd_init", domain 2):
// every pmcd.* metric of PCP's pmcd agent, with its names, PMIDs, types,
// semantics, units and instance domains, served from the state of the
// pmcd running it. That pmcd is reached through the Server interface and
// the Controls it shares, so that this package does not import package
// pmcd; package pmcd builds the agent for a "pmcd_init" line. As PCP's
// pmda_pmcd.so attaches only inside pmcd, the agent is not in the
// registry of in-process agents (pmda.Register) that local contexts use.
package pmcd
