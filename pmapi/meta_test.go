package pmapi

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// leafPMIDs looks up the sample names that are metrics.
func leafPMIDs(t *testing.T, c *HostContext) ([]string, []pcp.PMID) {
	t.Helper()
	pmids, err := c.LookupNames(testContext(t), sampleNames)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	var ids []pcp.PMID
	for i, pmid := range pmids {
		if pmid != pcp.PMIDNull {
			names = append(names, sampleNames[i])
			ids = append(ids, pmid)
		}
	}
	return names, ids
}

func descOf(h hDesc) pcp.Desc {
	return pcp.Desc{PMID: pcp.PMID(h.PMID), Type: pcp.Type(h.Type), InDom: pcp.InDom(h.InDom), Sem: pcp.Sem(h.Sem), Units: pcp.UnpackUnits(h.Units)}
}

func TestLookupDescMatchesLibpcp(t *testing.T) {
	bed := startBed(t)
	c := dial(t, bed)
	ctx := testContext(t)
	_, pmids := leafPMIDs(t, c)
	pmids = append(pmids, pcp.NewPMID(29, 0, 999), pcp.NewPMID(400, 1, 1))
	ids := make([]uint32, len(pmids))
	var reqs []req
	for i, pmid := range pmids {
		ids[i] = uint32(pmid)
		reqs = append(reqs, req{"op": "desc", "pmid": uint32(pmid)})
	}
	reqs = append(reqs, req{"op": "descs", "pmids": ids})
	want := askLibpcp(t, bed, bed.Host(), "", reqs)
	for i, pmid := range pmids {
		d, err := c.LookupDesc(ctx, pmid)
		w := want[i]
		if codeOf(err) != min(w.Sts, 0) || (w.Desc != nil && d != descOf(*w.Desc)) {
			t.Errorf("LookupDesc(%s) = %+v, %v; libpcp %+v, %d", pmid, d, err, w.Desc, w.Sts)
		}
	}
	descs, err := c.LookupDescs(ctx, pmids)
	w := want[len(pmids)]
	if err != nil || len(descs) != len(w.Descs) {
		t.Fatalf("LookupDescs = %v, %v; libpcp %v, %d", descs, err, w.Descs, w.Sts)
	}
	for i, d := range descs {
		if d != descOf(w.Descs[i]) {
			t.Errorf("LookupDescs[%d] = %+v, libpcp %+v", i, d, descOf(w.Descs[i]))
		}
	}
}

// TestLookupDescMatchesPMInfo compares descriptors with what pminfo -d
// prints for them.
func TestLookupDescMatchesPMInfo(t *testing.T) {
	bed := startBed(t)
	c := dial(t, bed)
	ctx := testContext(t)
	names, pmids := leafPMIDs(t, c)
	res := bed.Run("pminfo", append([]string{"-h", bed.Host(), "-d"}, names...)...)
	if res.Err != nil {
		t.Fatalf("pminfo -d: %v\n%s", res.Err, res.Stderr)
	}
	for i, name := range names {
		d, err := c.LookupDesc(ctx, pmids[i])
		if err != nil {
			t.Errorf("LookupDesc(%s): %v", name, err)
			continue
		}
		indom := d.InDom.String()
		units := d.Units.String()
		if units == "" {
			units = "none"
		}
		want := fmt.Sprintf("\n%s\n    Data Type: %s  InDom: %s 0x%x\n    Semantics: %s  Units: %s\n",
			name, pminfoTypeStr(d.Type), indom, uint32(d.InDom), d.Sem, units)
		if !strings.Contains(res.Stdout, want) {
			t.Errorf("LookupDesc(%s) = %+v: %q not in pminfo -d output\n%s", name, d, want, res.Stdout)
		}
	}
}

// pminfoTypeStr is how pminfo -d names a type: pmTypeStr's name without
// the "PM_TYPE_" prefix, except those it spells out.
func pminfoTypeStr(t pcp.Type) string {
	switch t {
	case pcp.Type32:
		return "32-bit int"
	case pcp.TypeU32:
		return "32-bit unsigned int"
	case pcp.Type64:
		return "64-bit int"
	case pcp.TypeU64:
		return "64-bit unsigned int"
	case pcp.TypeFloat:
		return "float"
	case pcp.TypeDouble:
		return "double"
	case pcp.TypeString:
		return "string"
	case pcp.TypeAggregate:
		return "aggregate"
	}
	return t.String()
}

// sampleInDoms are instance domains of the sample agent, one that it
// does not have and one of a domain nobody serves.
var sampleInDoms = []pcp.InDom{
	pcp.NewInDom(29, 1),  // sample.colour
	pcp.NewInDom(29, 2),  // sample.bin
	pcp.NewInDom(29, 3),  // sample.mirage
	pcp.NewInDom(29, 11), // sample.dodgey
	pcp.NewInDom(29, 99),
	pcp.NewInDom(400, 1),
}

func TestInDomMatchesLibpcp(t *testing.T) {
	bed := startBed(t)
	c := dial(t, bed)
	ctx := testContext(t)
	var reqs []req
	for _, indom := range sampleInDoms {
		reqs = append(reqs, req{"op": "getindom", "indom": uint32(indom)})
	}
	all := askLibpcp(t, bed, bed.Host(), "", reqs)
	// Then by name and by number, for each instance libpcp listed
	// and for some that do not exist.
	reqs = nil
	for i, indom := range sampleInDoms {
		for j, inst := range all[i].Insts {
			reqs = append(reqs,
				req{"op": "lookupindom", "indom": uint32(indom), "name": all[i].Names[j]},
				req{"op": "nameindom", "indom": uint32(indom), "inst": inst})
		}
		reqs = append(reqs,
			req{"op": "lookupindom", "indom": uint32(indom), "name": "no such instance"},
			req{"op": "nameindom", "indom": uint32(indom), "inst": int32(123456)})
	}
	// Names that match an instance's by their first word only.
	reqs = append(reqs, req{"op": "lookupindom", "indom": uint32(sampleInDoms[1]), "name": "bin-100 and more"})
	each := askLibpcp(t, bed, bed.Host(), "", reqs)
	if len(reqs) < 20 {
		t.Fatalf("libpcp listed too few instances: %+v", all)
	}

	for i, indom := range sampleInDoms {
		insts, err := c.GetInDom(ctx, indom)
		w := all[i]
		if codeOf(err) != min(w.Sts, 0) || len(insts) != len(w.Insts) {
			t.Errorf("GetInDom(%s) = %v, %v; libpcp %v %q, %d", indom, insts, err, w.Insts, w.Names, w.Sts)
			continue
		}
		for j, in := range insts {
			if in.Inst != w.Insts[j] || in.Name != w.Names[j] {
				t.Errorf("GetInDom(%s)[%d] = %+v, libpcp %d %q", indom, j, in, w.Insts[j], w.Names[j])
			}
		}
	}
	for i, r := range reqs {
		w := each[i]
		indom := pcp.InDom(r["indom"].(uint32))
		switch r["op"] {
		case "lookupindom":
			inst, err := c.LookupInDom(ctx, indom, r["name"].(string))
			if codeOf(err) != min(w.Sts, 0) || (w.Sts >= 0 && inst != w.Sts) {
				t.Errorf("LookupInDom(%s, %q) = %d, %v; libpcp %d", indom, r["name"], inst, err, w.Sts)
			}
		case "nameindom":
			name, err := c.NameInDom(ctx, indom, r["inst"].(int32))
			if codeOf(err) != min(w.Sts, 0) || (w.Name != nil && name != *w.Name) {
				t.Errorf("NameInDom(%s, %d) = %q, %v; libpcp %v, %d", indom, r["inst"], name, err, w.Name, w.Sts)
			}
		}
	}
	if _, err := c.GetInDom(ctx, pcp.InDomNull); codeOf(err) != int32(pcp.ErrInDom) {
		t.Errorf("GetInDom(PM_INDOM_NULL): %v, want %v", err, pcp.ErrInDom)
	}
}

func TestLookupTextMatchesLibpcp(t *testing.T) {
	bed := startBed(t)
	c := dial(t, bed)
	ctx := testContext(t)
	_, pmids := leafPMIDs(t, c)
	levels := []TextLevel{TextOneLine, TextHelp, TextHelp | TextDirect}
	type query struct {
		ident uint32
		indom bool
		level TextLevel
	}
	var qs []query
	for _, pmid := range append(pmids, pcp.NewPMID(29, 0, 999)) {
		for _, l := range levels {
			qs = append(qs, query{uint32(pmid), false, l})
		}
	}
	for _, indom := range sampleInDoms {
		for _, l := range levels {
			qs = append(qs, query{uint32(indom), true, l})
		}
	}
	var reqs []req
	for _, q := range qs {
		reqs = append(reqs, req{"op": "text", "ident": q.ident, "indom": q.indom, "level": int32(q.level)})
	}
	want := askLibpcp(t, bed, bed.Host(), "", reqs)
	texts := 0
	for i, q := range qs {
		var text string
		var err error
		if q.indom {
			text, err = c.LookupInDomText(ctx, pcp.InDom(q.ident), q.level)
		} else {
			text, err = c.LookupText(ctx, pcp.PMID(q.ident), q.level)
		}
		w := want[i]
		if codeOf(err) != min(w.Sts, 0) || (w.Text != nil && text != *w.Text) {
			t.Errorf("text of %#x (indom %v) level %d = %q, %v; libpcp %q, %d", q.ident, q.indom, q.level, text, err, deref(w.Text), w.Sts)
		}
		if text != "" {
			texts++
		}
	}
	if texts < len(pmids)*2 {
		t.Errorf("only %d texts compared", texts)
	}
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

// TestLookupTextMatchesPMInfo compares help text with pminfo -tT.
func TestLookupTextMatchesPMInfo(t *testing.T) {
	bed := startBed(t)
	c := dial(t, bed)
	ctx := testContext(t)
	names, pmids := leafPMIDs(t, c)
	for i, name := range names {
		res := bed.Run("pminfo", "-h", bed.Host(), "-tT", name)
		if res.Err != nil {
			t.Fatalf("pminfo -tT %s: %v\n%s", name, res.Err, res.Stderr)
		}
		one, err1 := c.LookupText(ctx, pmids[i], TextOneLine)
		help, err2 := c.LookupText(ctx, pmids[i], TextHelp)
		if err1 != nil || err2 != nil {
			t.Errorf("LookupText(%s): %v, %v", name, err1, err2)
			continue
		}
		want := name + " [" + one + "]\nHelp:\n" + help
		if !strings.Contains(res.Stdout, want) {
			t.Errorf("LookupText(%s): %q not in pminfo -tT output\n%s", name, want, res.Stdout)
		}
	}
}

// labelLevels are the label requests of the tests, per metric.
var labelLevels = []string{"context", "domain", "indom", "cluster", "item", "instances"}

func TestLabelsMatchLibpcp(t *testing.T) {
	bed := startBed(t)
	c := dial(t, bed)
	ctx := testContext(t)
	_, pmids := leafPMIDs(t, c)
	type query struct {
		level string
		ident uint32
	}
	var qs []query
	for _, pmid := range pmids {
		d, err := c.LookupDesc(ctx, pmid)
		if err != nil {
			t.Fatal(err)
		}
		qs = append(qs, query{"context", 0}, query{"domain", pmid.Domain()}, query{"cluster", uint32(pmid)}, query{"item", uint32(pmid)})
		if d.InDom != pcp.InDomNull {
			qs = append(qs, query{"indom", uint32(d.InDom)}, query{"instances", uint32(d.InDom)})
		}
	}
	qs = append(qs, query{"domain", 400}, query{"item", uint32(pcp.NewPMID(29, 0, 999))}, query{"instances", uint32(pcp.NewInDom(29, 99))})
	var reqs []req
	for _, q := range qs {
		reqs = append(reqs, req{"op": "labels", "level": q.level, "ident": q.ident})
	}
	want := askLibpcp(t, bed, bed.Host(), "", reqs)
	nonEmpty := 0
	for i, q := range qs {
		var sets []pcp.LabelSet
		var err error
		switch q.level {
		case "context":
			sets, err = c.ContextLabels(ctx)
		case "domain":
			sets, err = c.DomainLabels(ctx, q.ident)
		case "indom":
			sets, err = c.InDomLabels(ctx, pcp.InDom(q.ident))
		case "cluster":
			sets, err = c.ClusterLabels(ctx, pcp.PMID(q.ident))
		case "item":
			sets, err = c.ItemLabels(ctx, pcp.PMID(q.ident))
		case "instances":
			sets, err = c.InstancesLabels(ctx, pcp.InDom(q.ident))
		}
		w := want[i]
		if codeOf(err) != min(w.Sts, 0) || (w.Sts >= 0 && len(sets) != int(w.Sts)) {
			t.Errorf("%s labels of %#x = %d sets, %v; libpcp %d", q.level, q.ident, len(sets), err, w.Sts)
			continue
		}
		for j, s := range sets {
			nonEmpty++
			ws := w.Sets[j]
			var labels [][5]int32
			for _, l := range s.Labels {
				labels = append(labels, [5]int32{int32(l.Name), int32(l.NameLen), int32(l.Flags), int32(l.Value), int32(l.ValueLen)})
			}
			if s.Inst != ws.Inst || s.NLabels != ws.NLabels || s.JSON != ws.JSON || !slices.Equal(labels, ws.Labels) {
				t.Errorf("%s labels of %#x set %d = %+v; libpcp %+v", q.level, q.ident, j, s, ws)
			}
		}
	}
	if nonEmpty < len(pmids)*3 {
		t.Errorf("only %d label sets compared", nonEmpty)
	}
}

// mergeLabels merges label sets from the least to the most specific
// level, later names replacing earlier ones, as pminfo -l shows them.
func mergeLabels(t *testing.T, levels ...[]pcp.LabelSet) map[string]json.RawMessage {
	t.Helper()
	merged := make(map[string]json.RawMessage)
	for _, sets := range levels {
		for _, s := range sets {
			if s.JSON == "" {
				continue
			}
			var m map[string]json.RawMessage
			if err := json.Unmarshal([]byte(s.JSON), &m); err != nil {
				t.Fatalf("label JSON %q: %v", s.JSON, err)
			}
			maps.Copy(merged, m)
		}
	}
	return merged
}

// TestLabelsMatchPMInfo merges each metric's label sets and each
// instance's and compares them with what pminfo -l prints.
func TestLabelsMatchPMInfo(t *testing.T) {
	bed := startBed(t)
	c := dial(t, bed)
	ctx := testContext(t)
	names, pmids := leafPMIDs(t, c)
	must := func(sets []pcp.LabelSet, err error) []pcp.LabelSet {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return sets
	}
	context := must(c.ContextLabels(ctx))
	for i, name := range names {
		res := bed.Run("pminfo", "-h", bed.Host(), "-l", name)
		if res.Err != nil {
			t.Fatalf("pminfo -l %s: %v\n%s", name, res.Err, res.Stderr)
		}
		d, err := c.LookupDesc(ctx, pmids[i])
		if err != nil {
			t.Fatal(err)
		}
		levels := [][]pcp.LabelSet{context, must(c.DomainLabels(ctx, pmids[i].Domain()))}
		var insts []pcp.LabelSet
		if d.InDom != pcp.InDomNull {
			levels = append(levels, must(c.InDomLabels(ctx, d.InDom)))
			insts = must(c.InstancesLabels(ctx, d.InDom))
		}
		levels = append(levels, must(c.ClusterLabels(ctx, pmids[i])), must(c.ItemLabels(ctx, pmids[i])))
		want := map[string]map[string]json.RawMessage{}
		for _, line := range pminfoValues(res.Stdout)[name] {
			key, text, ok := strings.Cut(line, "labels ")
			if !ok {
				continue
			}
			var m map[string]json.RawMessage
			if err := json.Unmarshal([]byte(text), &m); err != nil {
				t.Fatalf("pminfo -l %s: %q: %v", name, line, err)
			}
			want[strings.TrimSpace(key)] = m
		}
		if got := mergeLabels(t, levels...); !labelsEqual(got, want[""]) {
			t.Errorf("%s: merged labels %s; pminfo -l %s", name, jsonText(got), jsonText(want[""]))
		}
		for _, s := range insts {
			iname, err := c.NameInDom(ctx, d.InDom, s.Inst)
			if err != nil {
				t.Fatal(err)
			}
			key := fmt.Sprintf("inst [%d or %q]", s.Inst, iname)
			got := mergeLabels(t, append(levels, []pcp.LabelSet{s})...)
			if !labelsEqual(got, want[key]) {
				t.Errorf("%s %s: merged labels %s; pminfo -l %s", name, key, jsonText(got), jsonText(want[key]))
			}
		}
	}
}

func labelsEqual(a, b map[string]json.RawMessage) bool {
	return maps.EqualFunc(a, b, func(x, y json.RawMessage) bool { return string(x) == string(y) })
}

func jsonText(m map[string]json.RawMessage) string {
	b, _ := json.Marshal(m)
	return string(b)
}
