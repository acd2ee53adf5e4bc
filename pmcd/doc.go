// Package pmcd is the Performance Metrics Collection Daemon: it accepts PCP
// clients, greets them with PCP 6's handshake, and answers their requests.
//
// For now it is a skeleton with a namespace and no agents: names, PMIDs,
// children and traversal come from its pmns.Tree exactly as PCP's pmcd
// answers them, and every request that needs an agent gets the error PCP's
// pmcd gives for a domain with no agent. Agents come with the pmda package.
package pmcd
