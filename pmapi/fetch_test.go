package pmapi

import (
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
)

// pminfoValues parses pminfo -f output into each metric's value lines
// ("value X" or "inst [N or "name"] value X"), indentation removed.
func pminfoValues(out string) map[string][]string {
	vals := make(map[string][]string)
	var name string
	for _, line := range strings.Split(out, "\n") {
		switch {
		case line == "":
			name = ""
		case !strings.HasPrefix(line, " "):
			name = line
			vals[name] = nil
		case name != "":
			vals[name] = append(vals[name], strings.TrimSpace(line))
		}
	}
	return vals
}

// valueText renders a fetched value as pminfo -f does for the types of
// the sample metrics compared here.
func valueText(t *testing.T, set *pcp.ValueSet, v *pcp.Value, typ pcp.Type) string {
	t.Helper()
	if typ == pcp.TypeAggregate {
		return hex.EncodeToString(v.Block.Data)
	}
	a, err := pcp.ExtractValue(set.ValFmt, v, typ, typ)
	if err != nil {
		t.Fatalf("ExtractValue %s: %v", set.PMID, err)
	}
	switch typ {
	case pcp.Type32:
		return strconv.Itoa(int(a.L))
	case pcp.TypeU32:
		return strconv.FormatUint(uint64(a.UL), 10)
	case pcp.Type64:
		return strconv.FormatInt(a.LL, 10)
	case pcp.TypeU64:
		return strconv.FormatUint(a.ULL, 10)
	case pcp.TypeFloat:
		return strconv.FormatFloat(float64(a.F), 'g', -1, 32)
	case pcp.TypeDouble:
		return strconv.FormatFloat(a.D, 'g', -1, 64)
	case pcp.TypeString:
		return strconv.Quote(a.CP)
	}
	t.Fatalf("no rendering for %s", typ)
	return ""
}

// TestFetchMatchesPMInfo fetches metrics whose values do not change and
// compares them with pminfo -f, and for sample.colour (whose values
// change with every fetch) the instances.
func TestFetchMatchesPMInfo(t *testing.T) {
	bed := startBed(t)
	c := dial(t, bed)
	ctx := testContext(t)
	names := []string{"sample.long.one", "sample.ulonglong.one", "sample.double.one", "sample.string.hullo", "sample.aggregate.hullo", "sample.colour", "sample.secret.foo.one", "sample.secret.foo.bar.grunt.snort.huff.puff.seven"}
	pmids, err := c.LookupNames(ctx, names)
	if err != nil {
		t.Fatal(err)
	}
	descs, err := c.LookupDescs(ctx, pmids)
	if err != nil {
		t.Fatal(err)
	}
	var r pcp.Result
	if _, err := c.Fetch(ctx, pmids, &r); err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	if len(r.Sets) != len(pmids) {
		t.Fatalf("Fetch: %d value sets for %d metrics", len(r.Sets), len(pmids))
	}
	res := bed.Run("pminfo", append([]string{"-h", bed.Host(), "-f"}, names...)...)
	if res.Err != nil {
		t.Fatalf("pminfo -f: %v\n%s", res.Err, res.Stderr)
	}
	want := pminfoValues(res.Stdout)
	for i, name := range names {
		set := &r.Sets[i]
		if set.PMID != pmids[i] || set.NumVal != int32(len(want[name])) {
			t.Errorf("%s: set %s with %d values; pminfo %q", name, set.PMID, set.NumVal, want[name])
			continue
		}
		for j := range set.Values {
			v := &set.Values[j]
			line := want[name][j]
			if descs[i].InDom != pcp.InDomNull {
				iname, err := c.NameInDom(ctx, descs[i].InDom, v.Inst)
				if err != nil {
					t.Fatal(err)
				}
				prefix := fmt.Sprintf("inst [%d or %q] value ", v.Inst, iname)
				if !strings.HasPrefix(line, prefix) {
					t.Errorf("%s value %d: instance %d %q; pminfo %q", name, j, v.Inst, iname, line)
				}
				continue
			}
			got := valueText(t, set, v, descs[i].Type)
			ok := line == "value "+got
			if descs[i].Type == pcp.TypeAggregate {
				ok = strings.HasPrefix(line, "value ") && strings.HasSuffix(line, "["+got+"]")
			}
			if !ok {
				t.Errorf("%s = %s; pminfo %q", name, got, line)
			}
		}
	}
}

// profileStep is one profile change: adding or deleting instances (nil
// for none) of an instance domain.
type profileStep struct {
	add   bool
	indom pcp.InDom
	insts []int32
}

var (
	colourInDom = pcp.NewInDom(29, 1)
	binInDom    = pcp.NewInDom(29, 2)
)

var profileCases = []struct {
	name  string
	steps []profileStep
}{
	{"default", nil},
	{"exclude everything", []profileStep{{false, pcp.InDomNull, nil}}},
	{"exclude all then add one", []profileStep{{false, colourInDom, nil}, {true, colourInDom, []int32{1}}}},
	{"add to a fresh domain", []profileStep{{true, colourInDom, []int32{0, 2}}}},
	{"delete from a fresh domain", []profileStep{{false, colourInDom, []int32{1}}}},
	{"include all then delete one", []profileStep{{true, colourInDom, nil}, {false, colourInDom, []int32{0}}}},
	{"global exclude then add", []profileStep{{false, pcp.InDomNull, nil}, {true, colourInDom, []int32{2}}}},
	{"instances with PM_INDOM_NULL", []profileStep{{true, pcp.InDomNull, []int32{1}}, {false, pcp.InDomNull, []int32{1}}}},
	{"duplicates and unknown instances", []profileStep{{true, binInDom, []int32{100, 200, 100, 12345}}, {false, binInDom, []int32{200}}}},
	{"two domains", []profileStep{{false, binInDom, nil}, {true, binInDom, []int32{300}}, {false, colourInDom, []int32{2}}, {true, colourInDom, []int32{2}}}},
	{"back to the default", []profileStep{{false, colourInDom, nil}, {true, pcp.InDomNull, nil}}},
}

// TestProfileMatchesLibpcp makes the same profile changes as libpcp and
// compares which instances the fetches that follow return.
func TestProfileMatchesLibpcp(t *testing.T) {
	bed := startBed(t)
	c := dial(t, bed)
	ctx := testContext(t)
	fetchNames := []string{"sample.colour", "sample.bin", "sample.long.one"}
	pmids, err := c.LookupNames(ctx, fetchNames)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]uint32, len(pmids))
	for i, p := range pmids {
		ids[i] = uint32(p)
	}
	var reqs []req
	for _, tc := range profileCases {
		reqs = append(reqs, req{"op": "addprofile", "indom": uint32(pcp.InDomNull)})
		for _, s := range tc.steps {
			op := "delprofile"
			if s.add {
				op = "addprofile"
			}
			reqs = append(reqs, req{"op": op, "indom": uint32(s.indom), "insts": s.insts})
		}
		reqs = append(reqs, req{"op": "fetch", "pmids": ids})
	}
	want := askLibpcp(t, bed, bed.Host(), "", reqs)
	k := 0
	for _, tc := range profileCases {
		if err := c.AddProfile(pcp.InDomNull, nil); err != nil {
			t.Fatal(err)
		}
		k++
		for i, s := range tc.steps {
			var err error
			if s.add {
				err = c.AddProfile(s.indom, s.insts)
			} else {
				err = c.DelProfile(s.indom, s.insts)
			}
			if codeOf(err) != want[k].Sts {
				t.Errorf("%s: step %d: %v; libpcp %d", tc.name, i, err, want[k].Sts)
			}
			k++
		}
		var r pcp.Result
		_, err := c.Fetch(ctx, pmids, &r)
		w := want[k]
		k++
		if codeOf(err) != min(w.Sts, 0) || len(r.Sets) != len(w.Sets) {
			t.Errorf("%s: Fetch: %d sets, %v; libpcp %d sets, %d", tc.name, len(r.Sets), err, len(w.Sets), w.Sts)
			continue
		}
		for i, set := range r.Sets {
			var insts []int32
			for _, v := range set.Values {
				insts = append(insts, v.Inst)
			}
			ws := w.Sets[i]
			if set.PMID != pcp.PMID(ws.PMID) || set.NumVal != ws.NumVal || !slices.Equal(insts, ws.Insts) {
				t.Errorf("%s: %s: numval %d instances %v; libpcp %d %v", tc.name, fetchNames[i], set.NumVal, insts, ws.NumVal, ws.Insts)
			}
		}
	}
}

// TestInstancesLabelsFollowProfile checks that the profile goes to pmcd
// before a request for instance labels, as libpcp sends it.
func TestInstancesLabelsFollowProfile(t *testing.T) {
	bed := startBed(t)
	c := dial(t, bed)
	ctx := testContext(t)
	reqs := []req{
		{"op": "delprofile", "indom": uint32(colourInDom)},
		{"op": "addprofile", "indom": uint32(colourInDom), "insts": []int32{1}},
		{"op": "labels", "level": "instances", "ident": uint32(colourInDom)},
	}
	want := askLibpcp(t, bed, bed.Host(), "", reqs)[2]
	if err := c.DelProfile(colourInDom, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.AddProfile(colourInDom, []int32{1}); err != nil {
		t.Fatal(err)
	}
	sets, err := c.InstancesLabels(ctx, colourInDom)
	if err != nil || len(sets) != int(want.Sts) {
		t.Fatalf("InstancesLabels = %d sets, %v; libpcp %d", len(sets), err, want.Sts)
	}
	for i, s := range sets {
		if s.Inst != want.Sets[i].Inst || s.JSON != want.Sets[i].JSON {
			t.Errorf("set %d = %d %s; libpcp %d %s", i, s.Inst, s.JSON, want.Sets[i].Inst, want.Sets[i].JSON)
		}
	}
}

func TestStore(t *testing.T) {
	bed := startBed(t)
	c := dial(t, bed)
	ctx := testContext(t)
	pmids, err := c.LookupNames(ctx, []string{"sample.write_me", "sample.string.write_me"})
	if err != nil {
		t.Fatal(err)
	}
	r := &pcp.Result{Sets: []pcp.ValueSet{
		{PMID: pmids[0], NumVal: 1, ValFmt: pcp.ValInSitu, Values: []pcp.Value{{Inst: pcp.InstNull, LVal: 4242}}},
		{PMID: pmids[1], NumVal: 1, ValFmt: pcp.ValDPtr, Values: []pcp.Value{{Inst: pcp.InstNull, Block: pcp.ValueBlock{Type: pcp.TypeString, Data: []byte("stored by gopcp\x00")}}}},
	}}
	if err := c.Store(ctx, r); err != nil {
		t.Fatalf("Store: %v", err)
	}
	res := bed.Run("pminfo", "-h", bed.Host(), "-f", "sample.write_me", "sample.string.write_me")
	vals := pminfoValues(res.Stdout)
	if !slices.Equal(vals["sample.write_me"], []string{"value 4242"}) || !slices.Equal(vals["sample.string.write_me"], []string{`value "stored by gopcp"`}) {
		t.Errorf("after Store, pminfo -f says\n%s%s", res.Stdout, res.Stderr)
	}

	for _, tc := range []struct {
		name string
		r    *pcp.Result
		want pcp.Error
	}{
		{"no sets", &pcp.Result{}, pcp.ErrTooSmall},
		{"no values", &pcp.Result{Sets: []pcp.ValueSet{{PMID: pmids[0]}}}, pcp.ErrValue},
		{"error set", &pcp.Result{Sets: []pcp.ValueSet{{PMID: pmids[0], NumVal: int32(pcp.ErrPMID)}}}, pcp.ErrValue},
		{"huge value", &pcp.Result{Sets: []pcp.ValueSet{{PMID: pmids[1], NumVal: 1, ValFmt: pcp.ValDPtr, Values: []pcp.Value{{Block: pcp.ValueBlock{Type: pcp.TypeString, Data: make([]byte, pcp.MaxValueLen)}}}}}}, pcp.ErrTooBig},
	} {
		if err := c.Store(ctx, tc.r); !errors.Is(err, tc.want) {
			t.Errorf("Store(%s): %v, want %v", tc.name, err, tc.want)
		}
	}
}

// TestStoreRefused compares refused stores with pmstore's complaints: one
// refused by pmcd's access control, one by the agent.
func TestStoreRefused(t *testing.T) {
	for _, tc := range []struct {
		access string
		metric string
	}{
		{`disallow ".*" : store;`, "sample.write_me"},
		{"", "sample.long.one"},
	} {
		bed := testbed.StartPMCD(t, testbed.Options{Access: tc.access, Env: []string{noDerived}})
		c := dial(t, bed)
		ctx := testContext(t)
		pmid, err := c.LookupName(ctx, tc.metric)
		if err != nil {
			t.Fatal(err)
		}
		r := &pcp.Result{Sets: []pcp.ValueSet{{PMID: pmid, NumVal: 1, Values: []pcp.Value{{Inst: pcp.InstNull, LVal: 7}}}}}
		err = c.Store(ctx, r)
		var code pcp.Error
		if !errors.As(err, &code) {
			t.Fatalf("Store(%s) with access %q: %v, want a PCP error", tc.metric, tc.access, err)
		}
		res := bed.Run("pmstore", "-h", bed.Host(), tc.metric, "7")
		if res.Err == nil || !strings.Contains(res.Stdout+res.Stderr, code.Error()) {
			t.Errorf("Store(%s) with access %q: %v; pmstore said\n%s%s", tc.metric, tc.access, err, res.Stdout, res.Stderr)
		}
		if tc.access != "" && !errors.Is(err, pcp.ErrPermission) {
			t.Errorf("Store refused by pmcd: %v, want %v", err, pcp.ErrPermission)
		}
	}
}
