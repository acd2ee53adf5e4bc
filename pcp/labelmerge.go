package pcp

import (
	"strings"
)

// MergeLabelSets merges label sets of increasing precedence into one JSON
// object as pmMergeLabelSets does: names in byte order, a later set's value
// replacing an earlier one's, and keep (when not nil) deciding which labels
// are kept. Nil sets and sets holding an error are skipped; ok is false when
// every set was, in which case PCP prints nothing. Compound (nested) values
// are replaced whole rather than merged member by member.
func MergeLabelSets(sets []*LabelSet, keep func(l Label) bool) (json string, ok bool) {
	type kv struct {
		name, value string
		drop        bool
	}
	var cur []kv
	for _, s := range sets {
		if s == nil || s.NLabels < 0 {
			continue
		}
		ok = true
		var next []kv
		for i, l := range s.Labels {
			// a label refused replaces an earlier one of the same name
			// all the same, leaving neither, as in libpcp
			next = append(next, kv{s.LabelName(i), s.LabelValue(i), keep != nil && !keep(l)})
		}
		merged := make([]kv, 0, len(cur)+len(next))
		i, j := 0, 0
		for i < len(cur) || j < len(next) {
			switch {
			case j >= len(next) || (i < len(cur) && cur[i].name < next[j].name):
				merged = append(merged, cur[i])
				i++
			case i >= len(cur) || next[j].name < cur[i].name:
				merged = append(merged, next[j])
				j++
			default: // same name: the later set wins
				merged = append(merged, next[j])
				i++
				j++
			}
		}
		cur = merged[:0]
		for _, p := range merged {
			if !p.drop {
				cur = append(cur, p)
			}
		}
	}
	if !ok {
		return "", false
	}
	var b strings.Builder
	b.WriteByte('{')
	for i, p := range cur {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"` + p.name + `":` + p.value)
	}
	b.WriteByte('}')
	return b.String(), true
}
