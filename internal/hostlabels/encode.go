package hostlabels

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/gopcp/gopcp/pcp"
)

// Set is the context-level label set of labels, sorted by name as PCP
// keeps them, optional ones flagged. Errors are pcp.ErrTooBig for more
// labels or JSON than a label set holds.
func (l Labels) Set() (pcp.LabelSet, error) {
	names := make([]string, 0, len(l))
	for k := range l {
		names = append(names, k)
	}
	slices.Sort(names)
	if len(names) >= pcp.MaxLabels {
		return pcp.LabelSet{}, pcp.ErrTooBig
	}
	set := pcp.LabelSet{Inst: pcp.InstNull}
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(k)
		nameOff := b.Len() + 1
		b.Write(name)
		b.WriteByte(':')
		valueOff := b.Len()
		v := l[k].Value
		b.Write(v)
		if len(name)-2 > 255 || b.Len() >= pcp.MaxLabelJSONLen {
			return pcp.LabelSet{}, pcp.ErrTooBig
		}
		flags := uint8(pcp.LabelContext)
		if l[k].Optional {
			flags |= pcp.LabelOptional
		}
		set.Labels = append(set.Labels, pcp.Label{Name: uint16(nameOff), NameLen: uint8(len(name) - 2),
			Flags: flags, Value: uint16(valueOff), ValueLen: uint16(len(v))})
	}
	b.WriteByte('}')
	set.JSON = b.String()
	set.NLabels = int32(len(set.Labels))
	return set, nil
}
