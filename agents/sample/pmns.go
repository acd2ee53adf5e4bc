package sample

import (
	"strings"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmns"
)

// Namespace is the agent's part of the namespace, as PCP ships it for the
// agent at domain: every name of the metric table, and the dynamic
// subtrees sample.secret and sample.ghosts whose names the agent serves
// itself (pmda.Namer). It lets a pmcd serve the agent on a host without
// PCP's namespace files.
func Namespace(domain uint32) (*pmns.Tree, error) {
	t := pmns.New()
	for _, d := range defs {
		for _, n := range d.names {
			if strings.HasPrefix(n, "sample.secret.") || strings.HasPrefix(n, "sample.ghosts.") {
				continue // below a dynamic subtree
			}
			if err := t.Add(n, pcp.NewPMID(domain, 0, d.item)); err != nil {
				return nil, err
			}
		}
	}
	for _, n := range []string{"sample.secret", "sample.ghosts"} {
		if err := t.Add(n, pmns.DynamicRoot(domain)); err != nil {
			return nil, err
		}
	}
	return t, nil
}
