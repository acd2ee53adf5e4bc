package pcp

import (
	"encoding/binary"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// fuzzLabelSet builds a well-formed label set from "name=value,..."
// text: names cut to identifier bytes, the last of a name kept, sorted;
// values that are not JSON scalars quoted.
func fuzzLabelSet(text string) *LabelSet {
	vals := map[string]string{}
	for _, kv := range strings.Split(text, ",") {
		name, value, _ := strings.Cut(kv, "=")
		name = strings.Map(func(r rune) rune {
			if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
				return r
			}
			return -1
		}, name)
		if name == "" || len(name) > 255 {
			continue
		}
		if !json.Valid([]byte(value)) || strings.ContainsAny(value, "{[") {
			b, _ := json.Marshal(value)
			value = string(b)
		}
		vals[name] = strings.TrimSpace(value)
	}
	names := make([]string, 0, len(vals))
	for n := range vals {
		names = append(names, n)
	}
	slices.Sort(names)
	s := &LabelSet{Inst: InstNull}
	var b strings.Builder
	b.WriteByte('{')
	for i, n := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"`)
		nameOff := b.Len()
		b.WriteString(n + `":`)
		valOff := b.Len()
		b.WriteString(vals[n])
		s.Labels = append(s.Labels, Label{Name: uint16(nameOff), NameLen: uint8(len(n)), Value: uint16(valOff), ValueLen: uint16(len(vals[n]))})
	}
	b.WriteByte('}')
	s.JSON = b.String()
	s.NLabels = int32(len(s.Labels))
	return s
}

// FuzzMergeLabelSets merges fuzzed label sets. Well-formed sets merge to
// the JSON object a map gives, later sets winning and refused labels
// leaving no value, names in byte order; sets with any offsets, as a
// damaged PDU or archive may carry, merge without failing into no more
// than their labels' bytes.
func FuzzMergeLabelSets(f *testing.F) {
	f.Add("hostname=\"a\",agent=\"sample\"|agent=\"linux\",x=1|x=null,cluster=2.5", []byte{0, 1, 2, 3, 4, 5, 6, 7})
	f.Add("a=1|b=true|c=\"s\",a=\"over\"", []byte("\x00\x02\x01\x00\x05\x00\x01"))
	f.Add("", []byte(nil))
	f.Fuzz(func(t *testing.T, text string, raw []byte) {
		var sets []*LabelSet
		model := map[string]string{}
		keep := func(l Label) bool { return l.Flags&LabelOptional == 0 }
		for _, part := range strings.Split(text, "|") {
			s := fuzzLabelSet(part)
			for i := range s.Labels {
				name := s.LabelName(i)
				if len(name)%3 == 0 { // some refused
					s.Labels[i].Flags |= LabelOptional
					delete(model, name)
					continue
				}
				model[name] = s.LabelValue(i)
			}
			sets = append(sets, s)
		}
		got, ok := MergeLabelSets(append(sets, nil), keep)
		if !ok {
			t.Fatalf("no merge of %d sets", len(sets))
		}
		var back map[string]json.RawMessage
		if err := json.Unmarshal([]byte(got), &back); err != nil {
			t.Fatalf("merged %q: %v", got, err)
		}
		if len(back) != len(model) {
			t.Fatalf("merged %q, want %v", got, model)
		}
		for k, v := range model {
			if string(back[k]) != v {
				t.Fatalf("merged %q: %s = %s, want %s", got, k, back[k], v)
			}
		}
		// Any offsets at all over the text as JSON.
		bad := &LabelSet{JSON: text}
		for len(raw) >= 8 {
			bad.Labels = append(bad.Labels, Label{Name: binary.BigEndian.Uint16(raw), NameLen: raw[2], Flags: raw[3],
				Value: binary.BigEndian.Uint16(raw[4:]), ValueLen: binary.BigEndian.Uint16(raw[6:])})
			raw = raw[8:]
		}
		bad.NLabels = int32(len(bad.Labels))
		out, _ := MergeLabelSets([]*LabelSet{bad, sets[0], bad}, nil)
		if limit := 2 + 2*len(bad.Labels)*(len(text)+4) + len(sets[0].JSON)*2; len(out) > limit {
			t.Fatalf("merged %d bytes from at most %d", len(out), limit)
		}
	})
}
