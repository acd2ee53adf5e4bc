package webapi

import (
	"github.com/gopcp/gopcp/pcp"
)

// firstSet returns the first label set of an answer that has labels, as
// pmproxy keeps one set per level, or nil.
func firstSet(sets []pcp.LabelSet, err error) *pcp.LabelSet {
	if err != nil || len(sets) == 0 || sets[0].NLabels <= 0 {
		return nil
	}
	s := sets[0]
	return &s
}
