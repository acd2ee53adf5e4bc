package webid

import (
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// set builds a label set from name, JSON value, flags triples, given in
// name order as PCP keeps them.
func set(triples ...any) *pcp.LabelSet {
	s := &pcp.LabelSet{Inst: pcp.InstNull}
	js := "{"
	for i := 0; i < len(triples); i += 3 {
		name, value, flags := triples[i].(string), triples[i+1].(string), triples[i+2].(uint8)
		if i > 0 {
			js += ","
		}
		l := pcp.Label{Name: uint16(len(js) + 1), NameLen: uint8(len(name)), Flags: flags}
		js += `"` + name + `":`
		l.Value, l.ValueLen = uint16(len(js)), uint16(len(value))
		js += value
		s.Labels = append(s.Labels, l)
	}
	s.JSON = js + "}"
	s.NLabels = int32(len(s.Labels))
	return s
}

func TestIdentifyingLabels(t *testing.T) {
	ctx := set("domainname", `"localdomain"`, pcp.LabelContext,
		"hostname", `"h"`, pcp.LabelContext,
		"site", `"lab"`, pcp.LabelContext|pcp.LabelOptional)
	item := set("hostname", `"other"`, pcp.LabelItem|pcp.LabelOptional, "units", `"bytes"`, pcp.LabelItem)
	optional := set("site", `"lab"`, pcp.LabelContext|pcp.LabelOptional)
	cases := []struct {
		name string
		sets []*pcp.LabelSet
		want string
	}{
		{"none", nil, "null"},
		{"nil sets only", []*pcp.LabelSet{nil, nil}, "null"},
		// a set whose labels are all optional merges to an empty object
		{"optional only", []*pcp.LabelSet{optional}, "{}"},
		{"optional dropped", []*pcp.LabelSet{ctx}, `{"domainname":"localdomain","hostname":"h"}`},
		// an optional label of a later set still replaces an earlier
		// one of its name, leaving neither, as pmMergeLabelSets does
		{"later optional replaces", []*pcp.LabelSet{ctx, nil, item}, `{"domainname":"localdomain","units":"bytes"}`},
	}
	for _, c := range cases {
		if got := IdentifyingLabels(c.sets); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}
