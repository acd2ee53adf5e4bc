package series

import (
	"strings"

	"github.com/gopcp/gopcp/archive"
)

// includes keeps the names of a load's Include list that the archive's
// namespace has (a metric or a subtree), as libpcp_web keeps the metrics
// its traversal of each finds; unknown are the others. With none kept
// every metric is loaded, as libpcp_web loads them all when no traversal
// found one.
func includes(m *archive.Meta, names []string) (kept, unknown []string) {
	for _, n := range names {
		if found, err := m.Traverse(n); err != nil || len(found) == 0 {
			unknown = append(unknown, n)
			continue
		}
		kept = append(kept, n)
	}
	return kept, unknown
}

// included says whether a metric of these names is loaded: one of them
// is an included name or under one.
func (l *loader) included(names []string) bool {
	if len(l.include) == 0 {
		return true
	}
	for _, n := range names {
		for _, inc := range l.include {
			if inc == "" || n == inc || strings.HasPrefix(n, inc) && n[len(inc)] == '.' {
				return true
			}
		}
	}
	return false
}
