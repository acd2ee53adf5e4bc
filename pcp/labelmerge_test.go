package pcp

import (
	"strings"
	"testing"
)

// testLabels builds a label set from name, JSON value pairs in the order
// given, as an agent sends them (sorted by name).
func testLabels(pairs ...string) *LabelSet {
	s := &LabelSet{Inst: InstNull}
	var b strings.Builder
	b.WriteByte('{')
	for i := 0; i+1 < len(pairs); i += 2 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('"')
		name := b.Len()
		b.WriteString(pairs[i] + `":`)
		value := b.Len()
		b.WriteString(pairs[i+1])
		s.Labels = append(s.Labels, Label{Name: uint16(name), NameLen: uint8(len(pairs[i])),
			Value: uint16(value), ValueLen: uint16(len(pairs[i+1]))})
	}
	b.WriteByte('}')
	s.JSON = b.String()
	s.NLabels = int32(len(s.Labels))
	return s
}

func TestMergeLabelSets(t *testing.T) {
	optional := testLabels("opt", `"x"`, "zz", "1")
	optional.Labels[0].Flags = LabelOptional
	failed := &LabelSet{NLabels: int32(ErrNoLabels)}
	tests := []struct {
		name   string
		sets   []*LabelSet
		keep   func(Label) bool
		want   string
		wantOK bool
	}{
		{name: "none", sets: nil},
		{name: "all nil or failed", sets: []*LabelSet{nil, failed}},
		{name: "one", sets: []*LabelSet{testLabels("b", "2", "a", `"x"`)}, want: `{"a":"x","b":2}`, wantOK: true},
		{name: "empty set counts", sets: []*LabelSet{nil, testLabels()}, want: `{}`, wantOK: true},
		{name: "later wins",
			sets:   []*LabelSet{testLabels("hostname", `"h"`, "role", `"db"`), nil, testLabels("role", `"web"`, "agent", `"sample"`)},
			want:   `{"agent":"sample","hostname":"h","role":"web"}`,
			wantOK: true},
		{name: "compound replaced whole",
			sets:   []*LabelSet{testLabels("m", `{"a":1,"b":2}`), testLabels("m", `{"c":3}`)},
			want:   `{"m":{"c":3}}`,
			wantOK: true},
		{name: "filter drops the earlier label of the same name too",
			sets:   []*LabelSet{testLabels("opt", `"early"`, "keep", "true"), optional},
			keep:   func(l Label) bool { return l.Flags&LabelOptional == 0 },
			want:   `{"keep":true,"zz":1}`,
			wantOK: true},
		{name: "byte order of names",
			sets:   []*LabelSet{testLabels("Z", "1", "a", "2", "_", "3")},
			want:   `{"Z":1,"_":3,"a":2}`,
			wantOK: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, s := range tc.sets {
				// the merge expects each set sorted, as agents send them
				if s != nil {
					sortTestLabels(s)
				}
			}
			got, ok := MergeLabelSets(tc.sets, tc.keep)
			if got != tc.want || ok != tc.wantOK {
				t.Errorf("MergeLabelSets = %q, %v; want %q, %v", got, ok, tc.want, tc.wantOK)
			}
		})
	}
}

func sortTestLabels(s *LabelSet) {
	for i := 1; i < len(s.Labels); i++ {
		for j := i; j > 0 && s.LabelName(j) < s.LabelName(j-1); j-- {
			s.Labels[j], s.Labels[j-1] = s.Labels[j-1], s.Labels[j]
		}
	}
}
