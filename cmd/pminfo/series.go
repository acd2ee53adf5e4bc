package main

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"

	"github.com/gopcp/gopcp/pcp"
)

// intrinsic keeps the identifying labels, culling optional ones.
func intrinsic(l pcp.Label) bool { return l.Flags&pcp.LabelOptional == 0 }

func sha1hex(s string) string {
	sum := sha1.Sum([]byte(s))
	return hex.EncodeToString(sum[:])
}

// metricSeries prints -s's source and metric series identifiers: SHA-1
// hashes of the JSON texts PCP's series identifiers are defined over.
func (r *reporter) metricSeries(ctx context.Context, name string, d pcp.Desc) {
	if json, ok := pcp.MergeLabelSets([]*pcp.LabelSet{r.contextLabels(ctx)}, intrinsic); ok {
		fmt.Fprintf(r.out, "    Source: %s\n", sha1hex(`{"series":"source","labels":`+json+`}`))
	}
	sets := []*pcp.LabelSet{r.contextLabels(ctx), r.domainLabels(ctx, d.PMID.Domain()),
		r.indomLabels(ctx, d.InDom), r.clusterLabels(ctx, d.PMID), r.itemLabels(ctx, d.PMID)}
	if json, ok := pcp.MergeLabelSets(sets, intrinsic); ok {
		text := fmt.Sprintf(`{"series":"metric","name":"%s","labels":%s,"semantics":"%s","type":"%s","units":"%s"}`,
			name, json, d.Sem, d.Type, d.Units)
		fmt.Fprintf(r.out, "    Series: %s\n", sha1hex(text))
	}
}

// instSeries prints -s's instance series identifiers.
func (r *reporter) instSeries(ctx context.Context, indom pcp.InDom) {
	if indom == pcp.InDomNull {
		return
	}
	base := []*pcp.LabelSet{r.contextLabels(ctx), r.domainLabels(ctx, indom.Domain()), r.indomLabels(ctx, indom)}
	isets := r.instanceLabels(ctx, indom)
	n := len(isets)
	if n == 0 {
		n = len(r.icache)
	}
	for i := 0; i < n; i++ {
		sets := base
		var inst int32 = pcp.InstNull
		if i < len(isets) {
			sets = append(append([]*pcp.LabelSet(nil), base...), &isets[i])
			inst = isets[i].Inst
		} else if i < len(r.icache) {
			inst = r.icache[i].Inst
		}
		json, ok := pcp.MergeLabelSets(sets, nil)
		if !ok {
			continue
		}
		iname, found := r.instName(ctx, indom, inst)
		hashName, shown := iname, iname
		if !found {
			hashName, shown = "???", "DISAPPEARED"
		}
		text := fmt.Sprintf(`{"series":"instance","name":"%s","labels":%s}`, hashName, json)
		fmt.Fprintf(r.out, "    inst [%d or \"%s\"] series %s\n", inst, shown, sha1hex(text))
	}
}
