package pdu

import (
	"encoding/json"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

func TestLabelReqCaptured(t *testing.T) {
	for _, m := range decodeCaptured[LabelReq](t) {
		if m.Type&int32(pcp.LabelContext) != 0 && m.Ident != uint32(pcp.PMIDNull) {
			t.Errorf("%+v: context request with an identifier", m)
		}
	}
}

// sampleLabels are the labels `pminfo -l sample.colour` reports, by the
// level they come from: the sample agent's domain, sample.colour's
// instance domain and its cluster.
var sampleLabels = []struct {
	typ   uint8
	ident uint32
	want  map[string]string
}{
	{pcp.LabelDomain, 29, map[string]string{"agent": `"sample"`, "role": `"testing"`}},
	{pcp.LabelInDom, uint32(sampleColourInDom), map[string]string{"model": `"RGB"`}},
	{pcp.LabelCluster, uint32(pcp.NewPMID(29, 0, 5)), map[string]string{"cluster": `"zero"`}},
}

// TestLabelCaptured checks every captured label set for an index that
// agrees with its JSON, and the sets of the levels above sample.colour
// and of its instances against pminfo.
func TestLabelCaptured(t *testing.T) {
	checked := map[uint8]bool{}
	for _, m := range decodeCaptured[Label](t) {
		for _, s := range m.Sets {
			checkLabelIndex(t, s)
		}
		for _, c := range sampleLabels {
			if m.Type != int32(c.typ) || m.Ident != c.ident {
				continue
			}
			checked[c.typ] = true
			if len(m.Sets) != 1 {
				t.Errorf("%v level: %d sets", c.typ, len(m.Sets))
				continue
			}
			s := m.Sets[0]
			got := map[string]string{}
			for i := range s.Labels {
				got[s.LabelName(i)] = s.LabelValue(i)
				if s.Labels[i].Flags&^(pcp.LabelCompound|pcp.LabelOptional) != c.typ {
					t.Errorf("label %s has flags %#x", s.LabelName(i), s.Labels[i].Flags)
				}
			}
			if s.Inst != pcp.InstNull || len(got) != len(c.want) {
				t.Errorf("%v level: set %+v, want %v", c.typ, s, c.want)
			}
			for k, v := range c.want {
				if got[k] != v {
					t.Errorf("%v level: %s is %s, want %s", c.typ, k, got[k], v)
				}
			}
		}
		if m.Type == int32(pcp.LabelInstances) && m.Ident == uint32(sampleColourInDom) {
			checked[pcp.LabelInstances] = true
			if len(m.Sets) != len(sampleColours) {
				t.Errorf("instances: %d sets", len(m.Sets))
				continue
			}
			for i, s := range m.Sets {
				if s.Inst != sampleColours[i].Inst || s.NLabels != 0 || s.JSON != "" {
					t.Errorf("instance set %d: %+v", i, s)
				}
			}
		}
	}
	for _, typ := range []uint8{pcp.LabelDomain, pcp.LabelInDom, pcp.LabelCluster, pcp.LabelInstances} {
		if !checked[typ] {
			t.Errorf("captures hold no LABEL for sample.colour's level %#x", typ)
		}
	}
}

// checkLabelIndex checks that s's JSON is an object and that its index
// picks out each of its names and values.
func checkLabelIndex(t *testing.T, s pcp.LabelSet) {
	t.Helper()
	if s.NLabels <= 0 {
		return
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s.JSON), &obj); err != nil {
		t.Errorf("set JSON %q: %v", s.JSON, err)
		return
	}
	if len(obj) != len(s.Labels) {
		t.Errorf("set JSON %q has %d labels, index %d", s.JSON, len(obj), len(s.Labels))
	}
	for i := range s.Labels {
		if v, ok := obj[s.LabelName(i)]; !ok || string(v) != s.LabelValue(i) {
			t.Errorf("label %d of %q: %q=%q", i, s.JSON, s.LabelName(i), s.LabelValue(i))
		}
	}
}

// TestLabelLayout checks offsets PCP computes that one set cannot show:
// with several sets, each set's JSON follows the previous one's, after
// all the sets and their labels, and an error count sends no labels.
func TestLabelLayout(t *testing.T) {
	m := Label{Ident: 5, Type: int32(pcp.LabelInstances), Sets: []pcp.LabelSet{
		{Inst: 1, NLabels: 1, JSON: `{"a":1}`, Labels: []pcp.Label{{Name: 2, NameLen: 1, Flags: pcp.LabelInstances, Value: 5, ValueLen: 1}}},
		{Inst: 2, NLabels: int32(pcp.ErrNoLabels), Labels: []pcp.Label{{}}},
		{Inst: 3, NLabels: 1, JSON: `{"bc":"d"}`, Labels: []pcp.Label{{Name: 2, NameLen: 2, Flags: pcp.LabelInstances, Value: 6, ValueLen: 3}}},
	}}
	b := m.Append(nil, 0)
	setsEnd := labelFixedLen + 3*labelSetSize + 2*labelSize
	if want := setsEnd + 7 + 10; len(b) != want {
		t.Fatalf("length %d, want %d", len(b), want)
	}
	for i, off := range []int{setsEnd, setsEnd + 7, setsEnd + 7} {
		at := labelFixedLen + i*labelSetSize + min(i, 1)*labelSize + 8
		if i == 2 {
			at = labelFixedLen + 2*labelSetSize + labelSize + 8
		}
		if got := int(int32(uint32(b[at])<<24 | uint32(b[at+1])<<16 | uint32(b[at+2])<<8 | uint32(b[at+3]))); got != off {
			t.Errorf("set %d: JSON offset %d, want %d", i, got, off)
		}
	}
	var back Label
	if err := back.Decode(b); err != nil {
		t.Fatal(err)
	}
	if back.Sets[1].NLabels != int32(pcp.ErrNoLabels) || back.Sets[1].Labels != nil ||
		back.Sets[2].LabelName(0) != "bc" || back.Sets[2].LabelValue(0) != `"d"` {
		t.Errorf("decoded %+v", back)
	}
}

func TestLabelMalformed(t *testing.T) {
	req := (&LabelReq{Ident: 29, Type: int32(pcp.LabelDomain)}).Append(nil, 0)
	one := (&Label{Ident: 29, Type: int32(pcp.LabelDomain), Sets: []pcp.LabelSet{{
		Inst: pcp.InstNull, NLabels: 1, JSON: `{"agent":"sample"}`,
		Labels: []pcp.Label{{Name: 2, NameLen: 5, Flags: pcp.LabelDomain, Value: 9, ValueLen: 8}},
	}}}).Append(nil, 0)
	// one: padding 20, set count 24, inst 28, label count 32, JSON offset
	// 36, JSON length 40, label 44 (name 44, name length 46, value 48,
	// value length 50), JSON 52.
	const jsonAt = 52
	runMalformed(t, []malformed{
		{"req short", resized(req, len(req)-4)},
		{"req long", resized(req, len(req)+1)},
		{"set count negative", patched(one, 24, 0xffffffff)},
		{"set count huge", patched(one, 24, 0x7fffffff)},
		{"set count lies high", patched(one, 24, 2)},
		{"label count at limit", patched(one, 32, pcp.MaxLabels)},
		{"label count lies high", patched(one, 32, 4)},
		{"label count lies low", patched(one, 32, 0)},
		{"JSON offset inside sets", patched(one, 36, jsonAt-1)},
		{"JSON offset negative", patched(one, 36, 0xfffffff0)},
		{"JSON offset past end", patched(one, 36, jsonAt+1)},
		{"JSON length negative", patched(one, 40, 0xffffffff)},
		{"JSON length at limit", patched(one, 40, pcp.MaxLabelJSONLen)},
		{"JSON length past end", patched(one, 40, 19)},
		{"JSON short of end", patched(one, 40, 17)},
		{"label name outside JSON", patched(one, 44, 0x00100501)},
		{"label value outside JSON", patched(one, 48, 0x000a0009)},
		{"no sets", resized(one, 24)},
	})
}
