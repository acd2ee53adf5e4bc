package mmv

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/gopcp/gopcp/pcp"
)

// label is one top-level label of a file's payload, with the flags of the
// record it came from (its level, perhaps PM_LABEL_OPTIONAL).
type label struct {
	name  string
	value json.RawMessage
	flags uint8
}

// labelsOf decodes a label record's payload, a JSON object; a payload
// that is not one gives no labels (libpcp refuses it).
func labelsOf(payload string, flags uint32) []label {
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(payload), &m); err != nil {
		return nil
	}
	var ls []label
	for k, v := range m {
		ls = append(ls, label{name: k, value: v, flags: uint8(flags)})
	}
	slices.SortFunc(ls, func(x, y label) int { return strings.Compare(x.name, y.name) })
	return ls
}

// mergeLabels adds more to have, a label of more replacing one of the
// same name, as libpcp merges a record's labels into a set.
func mergeLabels(have, more []label) []label {
	for _, m := range more {
		if i := slices.IndexFunc(have, func(h label) bool { return h.name == m.name }); i >= 0 {
			have[i] = m
		} else {
			have = append(have, m)
		}
	}
	return have
}

// labelSet builds the set libpcp builds from the labels: the JSON object
// sorted by name, and an index entry per label, where a label whose value
// is an object is indexed by its leaves (names and values inside the
// object, flagged PM_LABEL_COMPOUND) rather than by itself, as libpcp's
// label parser indexes compound labels.
func labelSet(inst int32, ls []label) (pcp.LabelSet, error) {
	ls = slices.Clone(ls)
	slices.SortFunc(ls, func(x, y label) int { return strings.Compare(x.name, y.name) })
	set := pcp.LabelSet{Inst: inst}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, l := range ls {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := writeLabel(&b, &set, l.name, l.value, l.flags, false); err != nil {
			return pcp.LabelSet{}, err
		}
	}
	b.WriteByte('}')
	if b.Len() >= pcp.MaxLabelJSONLen || len(set.Labels) >= pcp.MaxLabels {
		return pcp.LabelSet{}, pcp.ErrTooBig
	}
	set.JSON = b.String()
	set.NLabels = int32(len(set.Labels))
	return set, nil
}

// writeLabel writes "name":value and indexes it (or its leaves).
func writeLabel(b *bytes.Buffer, set *pcp.LabelSet, name string, value json.RawMessage, flags uint8, nested bool) error {
	n, err := json.Marshal(name)
	if err != nil || len(n)-2 > 255 {
		return fmt.Errorf("label name %q: %w", name, pcp.ErrLabel)
	}
	nameOff := b.Len() + 1
	b.Write(n)
	b.WriteByte(':')
	if nested {
		flags |= pcp.LabelCompound
		set.Compound = true
	}
	value = bytes.TrimSpace(value)
	if len(value) > 0 && value[0] == '{' {
		keys, vals, err := objectInOrder(value)
		if err != nil {
			return err
		}
		b.WriteByte('{')
		for i := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := writeLabel(b, set, keys[i], vals[i], flags, true); err != nil {
				return err
			}
		}
		b.WriteByte('}')
		return nil
	}
	var c bytes.Buffer
	if err := json.Compact(&c, value); err != nil {
		return fmt.Errorf("label %q: %w", name, pcp.ErrLabel)
	}
	valueOff := b.Len()
	b.Write(c.Bytes())
	if b.Len() >= pcp.MaxLabelJSONLen {
		return pcp.ErrTooBig
	}
	set.Labels = append(set.Labels, pcp.Label{Name: uint16(nameOff), NameLen: uint8(len(n) - 2), Flags: flags,
		Value: uint16(valueOff), ValueLen: uint16(c.Len())})
	return nil
}

// objectInOrder splits a JSON object into its keys and values in the
// order written.
func objectInOrder(obj json.RawMessage) ([]string, []json.RawMessage, error) {
	d := json.NewDecoder(bytes.NewReader(obj))
	if _, err := d.Token(); err != nil {
		return nil, nil, pcp.ErrLabel
	}
	var keys []string
	var vals []json.RawMessage
	for d.More() {
		t, err := d.Token()
		k, ok := t.(string)
		if err != nil || !ok {
			return nil, nil, pcp.ErrLabel
		}
		var v json.RawMessage
		if err := d.Decode(&v); err != nil {
			return nil, nil, pcp.ErrLabel
		}
		keys, vals = append(keys, k), append(vals, v)
	}
	return keys, vals, nil
}
