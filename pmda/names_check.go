package pmda

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gopcp/gopcp/pcp"
)

// checkNames refuses the metric names pmns.Tree.Add would: a malformed
// name (pcp.ErrName), one name for two PMIDs, and a name below another
// metric's (pcp.ErrPMID). It sorts the names only when they are not
// already in order, and needs no tree.
func checkNames(ms []Metric) error {
	named := make([]*Metric, 0, len(ms))
	for i := range ms {
		m := &ms[i]
		if m.Name == "" {
			continue
		}
		if strings.HasPrefix(m.Name, ".") || strings.HasSuffix(m.Name, ".") || strings.Contains(m.Name, "..") {
			return fmt.Errorf("malformed name %q: %w", m.Name, pcp.ErrName)
		}
		named = append(named, m)
	}
	byName := func(a, b *Metric) int { return strings.Compare(a.Name, b.Name) }
	if !slices.IsSortedFunc(named, byName) {
		slices.SortFunc(named, byName)
	}
	// Names that start with a name are next to it in byte order: look
	// along them for the same name and for one below it.
	for i, m := range named {
		for _, n := range named[i+1:] {
			rest, ok := strings.CutPrefix(n.Name, m.Name)
			if !ok {
				break
			}
			switch {
			case rest == "" && n.Desc.PMID != m.Desc.PMID:
				return fmt.Errorf("%q is both %s and %s: %w", m.Name, m.Desc.PMID, n.Desc.PMID, pcp.ErrPMID)
			case rest != "" && rest[0] == '.':
				return fmt.Errorf("%q is below metric %q: %w", n.Name, m.Name, pcp.ErrPMID)
			}
		}
	}
	return nil
}
