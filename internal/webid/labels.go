package webid

import "github.com/gopcp/gopcp/pcp"

// Identifying keeps the labels that identify a series: every label but
// the optional ones, as libpcp_web's "labels" filter does.
func Identifying(l pcp.Label) bool { return l.Flags&pcp.LabelOptional == 0 }

// IdentifyingLabels merges sets (of increasing precedence; nil ones are
// skipped) keeping the identifying labels, as identifiers hash them:
// "null" when there is nothing to merge.
func IdentifyingLabels(sets []*pcp.LabelSet) string {
	js, ok := pcp.MergeLabelSets(sets, Identifying)
	if !ok || js == "" {
		return "null"
	}
	return js
}
