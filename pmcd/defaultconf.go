package pmcd

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"

	"github.com/gopcp/gopcp/access"
	pmcdagent "github.com/gopcp/gopcp/agents/pmcd"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmns"
)

// DefaultAccess is the [access] section of the built-in configuration,
// that of the pmcd.conf PCP ships: local clients (the Unix socket and
// this host's own addresses) may do everything, other hosts everything
// but store.
const DefaultAccess = `disallow ".*" : store;
disallow ":*" : store;
allow "local:*" : all;
`

// DefaultConf is the configuration of a pmcd started without pmcd.conf:
// in-process agents only, so that it needs nothing installed — pmcd's own
// agent (pmcd_init, domain 2), the process agent (proc_init, 3), the Linux
// agent (linux_init, 60), the
// sample agent (sample_init, 29) and the MMV agent (mmv_init, 70, serving
// the files of $PCP_TMP_DIR/mmv that Go programs instrumented with
// package mmv write), at the domains PCP gives them — and DefaultAccess,
// so that a pmcd listening on every interface takes no store from another
// host. The Linux, sample and MMV agents must be registered (import
// package agents/all).
func DefaultConf() *Conf {
	c, err := ParseConf(strings.NewReader("[access]\n"+DefaultAccess), "pmcd")
	if err != nil {
		// Only "local:*" can fail, on a host with no address of its
		// own: then local clients are those of the Unix socket, and
		// stores from any address are still refused.
		c = &Conf{Warnings: []string{access.NotePrefix + "built-in access control: " + err.Error() + "; only Unix socket clients may store"}}
		var uerr error
		if c.ACL, uerr = unixOnlyStores(access.HostAddrs(lookupHost)); uerr != nil {
			c.Warnings = append(c.Warnings, access.NotePrefix+"built-in access control: "+uerr.Error())
		}
	}
	c.Agents = []AgentConf{
		{Name: "pmcd", Domain: 2, Kind: AgentDSO, Entry: pmcdEntry},
		{Name: "proc", Domain: 3, Kind: AgentDSO, Entry: "proc_init"},
		{Name: "linux", Domain: 60, Kind: AgentDSO, Entry: "linux_init"},
		{Name: "sample", Domain: 29, Kind: AgentDSO, Entry: "sample_init"},
		{Name: "mmv", Domain: 70, Kind: AgentDSO, Entry: "mmv_init"},
	}
	return c
}

// unixOnlyStores is DefaultAccess without "local:*"'s addresses, for a
// host that has none: stores only from the Unix socket. A loopback client
// is judged by the loopback addresses when the host has no others, so
// that it may still fetch.
func unixOnlyStores(myAddr func() []net.IP) (*access.Control, error) {
	var errs []error
	a := access.New(access.Options{MyAddrs: func() []net.IP {
		if ips := myAddr(); len(ips) > 0 {
			return ips
		}
		return []net.IP{net.IPv4(127, 0, 0, 1).To4(), net.IPv6loopback}
	}})
	for _, h := range []struct {
		name       string
		spec, deny int
	}{{".*", access.OpStore, access.OpStore}, {":*", access.OpStore, access.OpStore}, {"unix:", access.OpAll, 0}} {
		errs = append(errs, a.AddHost(h.name, h.spec, h.deny))
	}
	return a, errors.Join(errs...)
}

// NameSource gives an in-process agent's part of the namespace when the
// names are not all in its metric table (an agent with dynamic subtrees,
// or with several names for a metric).
type NameSource func(domain uint32) (*pmns.Tree, error)

// AgentNamespace builds the namespace of conf's in-process agents from
// the agents themselves, for a pmcd on a host without PCP's namespace
// files: an agent whose entry point has a NameSource in sources gets that
// part, any other the names of its metric table. Lines of other kinds are
// skipped: only PCP's namespace files know a daemon agent's names.
func AgentNamespace(ctx context.Context, conf *Conf, sources map[string]NameSource) (*pmns.Tree, error) {
	t := pmns.New()
	for _, ac := range conf.Agents {
		if ac.Kind != AgentDSO {
			continue
		}
		part, err := agentNames(ctx, ac, sources[ac.Entry])
		if err != nil {
			return nil, fmt.Errorf("namespace of agent %s: %w", ac.Name, err)
		}
		names, err := part.Traverse("")
		if err != nil {
			return nil, fmt.Errorf("namespace of agent %s: %w", ac.Name, err)
		}
		// An agent's tree, like libpcp's, lists the names added later
		// first: reversed, its names are in the order the agent declares
		// them. Then PCP's own order for the names it has; adding the
		// last first leaves them listed so.
		slices.Reverse(names)
		inPCPOrder(names)
		for _, n := range slices.Backward(names) {
			id, err := part.Lookup(n)
			if err != nil {
				return nil, err
			}
			if err := t.Add(n, id); err != nil {
				return nil, fmt.Errorf("namespace of agent %s: %w", ac.Name, err)
			}
		}
	}
	return t, nil
}

// inPCPOrder puts names PCP's namespace holds (pcpOrder: its pmcd and
// Linux agents') in PCP's order, so that pmcd lists a node's children as
// PCP's pmcd does (kernel.all starting with load); other names keep
// their order, after them.
func inPCPOrder(names []string) {
	rank := make(map[string]int, len(pcpOrder))
	for i, n := range pcpOrder {
		rank[n] = i
	}
	key := func(n string) int {
		if r, ok := rank[n]; ok {
			return r
		}
		return len(pcpOrder)
	}
	slices.SortStableFunc(names, func(a, b string) int { return key(a) - key(b) })
}

// agentNames is one in-process agent's namespace.
func agentNames(ctx context.Context, ac AgentConf, src NameSource) (*pmns.Tree, error) {
	if src != nil {
		return src(ac.Domain)
	}
	t := pmns.New()
	if ac.Entry == pmcdEntry {
		ms, _ := pmcdagent.Table()
		for _, m := range ms {
			id := pcp.NewPMID(ac.Domain, m.Desc.PMID.Cluster(), m.Desc.PMID.Item())
			if err := t.Add(m.Name, id); err != nil {
				return nil, err
			}
		}
		return t, nil
	}
	newAgent := lookupDSO(ac.Entry)
	if newAgent == nil {
		return nil, fmt.Errorf("no in-process agent has the entry point %q", ac.Entry)
	}
	a, err := newAgent(ac.Domain)
	if err != nil {
		return nil, err
	}
	names, err := a.Traverse(ctx, 0, "")
	if err != nil {
		return nil, err
	}
	for _, n := range names {
		id, err := a.LookupName(ctx, 0, n)
		if err != nil {
			return nil, err
		}
		if err := t.Add(n, id); err != nil {
			return nil, err
		}
	}
	return t, nil
}
