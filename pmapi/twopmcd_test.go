package pmapi

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
)

// stableSample are sample metrics whose values do not change by
// themselves, so two pmcds give the same.
var stableSample = []string{
	"sample.long.one", "sample.long.hundred", "sample.ulong.million", "sample.longlong.ten",
	"sample.ulonglong.hundred", "sample.float.one", "sample.double.million", "sample.string.hullo",
	"sample.colour", "sample.bin", "sample.part_bin", "sample.long.bin", "sample.aggregate.hullo",
	"sample.noinst", "sample.bad.unknown", "sample.bad.nosupp", "sample.needprofile", "sample.darkness",
}

// transcript asks a context the PMAPI's questions about the sample agent
// and writes the answers as text, errors as their PCP codes.
func transcript(ctx context.Context, t *testing.T, c Source) string {
	t.Helper()
	var b strings.Builder
	e := func(err error) string {
		if err == nil {
			return "ok"
		}
		return fmt.Sprint(codeOf(err))
	}
	names, err := c.Traverse(ctx, "sample")
	fmt.Fprintf(&b, "traverse %d %s\n", len(names), e(err))
	names = slices.DeleteFunc(names, func(n string) bool { return strings.HasPrefix(n, "sample.scramble") })
	b.WriteString(strings.Join(names, "\n") + "\n")
	kids, err := c.ChildrenStatus(ctx, "sample.long")
	fmt.Fprintf(&b, "children %v %s\n", kids, e(err))
	_, err = c.ChildrenStatus(ctx, "no.such")
	fmt.Fprintf(&b, "children unknown %s\n", e(err))
	ids, err := c.LookupNames(ctx, append(slices.Clone(names), "no.such.metric", "sample.long"))
	fmt.Fprintf(&b, "lookup %s %v\n", e(err), ids[len(ids)-2:])
	ids = ids[:len(names)]
	// sample.secret.foo.bar.max.redirect is a name of pmcd's own agent's
	// metric, which gopcp's pmcd does not have yet: only domain 29 counts
	for i := len(ids) - 1; i >= 0; i-- {
		if ids[i].Domain() != 29 {
			fmt.Fprintf(&b, "skipped %s %s\n", names[i], ids[i])
			names = slices.Delete(names, i, i+1)
			ids = slices.Delete(ids, i, i+1)
		}
	}
	for i, id := range ids {
		n, err := c.NameAll(ctx, id)
		fmt.Fprintf(&b, "%s %s names %v %s\n", names[i], id, n, e(err))
	}
	descs, err := c.LookupDescs(ctx, ids)
	fmt.Fprintf(&b, "descs %s\n", e(err))
	indoms := map[pcp.InDom]bool{}
	for i, d := range descs {
		fmt.Fprintf(&b, "%s %+v\n", names[i], d)
		one, err := c.LookupText(ctx, ids[i], TextOneLine)
		help, err2 := c.LookupText(ctx, ids[i], TextHelp)
		fmt.Fprintf(&b, "  text %q %s %q %s\n", one, e(err), help, e(err2))
		for _, l := range []func(context.Context, pcp.PMID) ([]pcp.LabelSet, error){c.ClusterLabels, c.ItemLabels} {
			sets, err := l(ctx, ids[i])
			fmt.Fprintf(&b, "  labels %s", e(err))
			for _, s := range sets {
				fmt.Fprintf(&b, " %d %s", s.Inst, s.JSON)
			}
			b.WriteString("\n")
		}
		if d.InDom != pcp.InDomNull {
			indoms[d.InDom] = true
		}
	}
	sets, err := c.DomainLabels(ctx, 29)
	fmt.Fprintf(&b, "domain labels %s %v\n", e(err), sets)
	for _, indom := range slices.Sorted(mapKeys(indoms)) {
		insts, err := c.GetInDom(ctx, indom)
		fmt.Fprintf(&b, "indom %s %v %s\n", indom, insts, e(err))
		if len(insts) > 0 {
			n, err := c.LookupInDom(ctx, indom, insts[len(insts)-1].Name)
			name, err2 := c.NameInDom(ctx, indom, insts[0].Inst)
			fmt.Fprintf(&b, "  lookup %d %s name %q %s\n", n, e(err), name, e(err2))
		}
		_, err = c.LookupInDom(ctx, indom, "no such instance")
		fmt.Fprintf(&b, "  unknown %s\n", e(err))
		one, err := c.LookupInDomText(ctx, indom, TextOneLine)
		fmt.Fprintf(&b, "  text %q %s\n", one, e(err))
		for _, l := range []func(context.Context, pcp.InDom) ([]pcp.LabelSet, error){c.InDomLabels, c.InstancesLabels} {
			sets, err := l(ctx, indom)
			fmt.Fprintf(&b, "  labels %s", e(err))
			for _, s := range sets {
				fmt.Fprintf(&b, " %d %s", s.Inst, s.JSON)
			}
			b.WriteString("\n")
		}
	}
	// fetches: all instances, then a profile of some
	stable, err := c.LookupNames(ctx, stableSample)
	if err != nil {
		t.Fatal(err)
	}
	fetch := func(what string) {
		var r pcp.Result
		_, err := c.Fetch(ctx, stable, &r)
		fmt.Fprintf(&b, "fetch %s %s\n", what, e(err))
		for i, s := range r.Sets {
			fmt.Fprintf(&b, "  %s %d", stableSample[i], s.NumVal)
			for j := range s.Values {
				fmt.Fprintf(&b, " %d=%s", s.Values[j].Inst, pcp.FormatValue(s.ValFmt, descOr(descs, names, stableSample[i]).Type, &s.Values[j], 1))
			}
			b.WriteString("\n")
		}
	}
	fetch("all")
	colour := descOr(descs, names, "sample.colour").InDom
	if err := c.DelProfile(colour, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.AddProfile(colour, []int32{2, 0}); err != nil {
		t.Fatal(err)
	}
	fetch("profile")
	if err := c.AddProfile(pcp.InDomNull, nil); err != nil {
		t.Fatal(err)
	}
	fetch("reset")
	// stores: accepted, refused by the agent, wrong type
	for _, s := range []struct {
		name string
		v    pcp.Value
		fmt  pcp.ValFmt
	}{
		{"sample.long.write_me", pcp.Value{Inst: pcp.InstNull, LVal: 99}, pcp.ValInSitu},
		{"sample.long.one", pcp.Value{Inst: pcp.InstNull, LVal: 5}, pcp.ValInSitu},
		{"sample.string.write_me", pcp.Value{Inst: pcp.InstNull, LVal: 5}, pcp.ValInSitu},
	} {
		id, _ := c.LookupName(ctx, s.name)
		err := c.Store(ctx, &pcp.Result{Sets: []pcp.ValueSet{{PMID: id, NumVal: 1, ValFmt: s.fmt, Values: []pcp.Value{s.v}}}})
		fmt.Fprintf(&b, "store %s %s\n", s.name, e(err))
	}
	return b.String()
}

func descOr(descs []pcp.Desc, names []string, name string) pcp.Desc {
	if i := slices.Index(names, name); i >= 0 {
		return descs[i]
	}
	return pcp.Desc{InDom: pcp.InDomNull}
}

func mapKeys[K comparable, V any](m map[K]V) func(func(K) bool) {
	return func(yield func(K) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// TestSameAnswersBothPMCDs asks PCP's pmcd and gopcp's pmcd, each serving
// PCP's sample agent, the same questions through pmapi: the answers must
// be the same.
func TestSameAnswersBothPMCDs(t *testing.T) {
	t.Parallel()
	opts := testbed.Options{Env: []string{noDerived}}
	theirs := testbed.StartPMCD(t, opts)
	ours := testbed.StartGoPMCD(t, opts)
	ctx := testContext(t)
	got := map[string]string{}
	for name, bed := range map[string]*testbed.PMCD{"PCP": theirs, "gopcp": ours} {
		c := dial(t, bed)
		got[name] = transcript(ctx, t, c)
	}
	w, g := strings.Split(got["PCP"], "\n"), strings.Split(got["gopcp"], "\n")
	if len(w) < 200 {
		t.Fatalf("transcript too short (%d lines):\n%s", len(w), got["PCP"])
	}
	bad := 0
	for i := range max(len(w), len(g)) {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			if bad++; bad <= 15 {
				t.Errorf("line %d:\n  PCP's pmcd:   %s\n  gopcp's pmcd: %s", i+1, a, b)
			}
		}
	}
	t.Logf("%d lines of answers compared", len(w))
}
