package main

import (
	"context"
	"fmt"

	"github.com/gopcp/gopcp/internal/hostlabels"
	"github.com/gopcp/gopcp/pcp"
)

// labelCache keeps the label sets pminfo last asked for at each level,
// as pminfo does, so that a run asks pmcd the same questions.
type labelCache struct {
	ctxDone   bool
	ctxSet    *pcp.LabelSet
	domain    int64
	domSet    *pcp.LabelSet
	indom     pcp.InDom
	indomSet  *pcp.LabelSet
	cluster   pcp.PMID
	clSet     *pcp.LabelSet
	item      pcp.PMID
	itemSet   *pcp.LabelSet
	instInDom pcp.InDom
	instSets  []pcp.LabelSet
	instErr   bool
}

func newLabelCache() labelCache {
	return labelCache{domain: -1, indom: pcp.InDomNull, cluster: pcp.PMIDNull,
		item: pcp.PMIDNull, instInDom: pcp.InDomNull}
}

func first(sets []pcp.LabelSet, err error) *pcp.LabelSet {
	if err != nil || len(sets) == 0 {
		return nil
	}
	return &sets[0]
}

func (r *reporter) contextLabels(ctx context.Context) *pcp.LabelSet {
	lc := &r.labels
	if !lc.ctxDone {
		lc.ctxDone = true
		lc.ctxSet = first(r.c.ContextLabels(ctx))
		if lc.ctxSet == nil {
			// a host name that makes no label set leaves none, as in pminfo
			host, _ := r.c.HostName(ctx)
			lc.ctxSet, _ = hostlabels.Default(host)
		}
	}
	return lc.ctxSet
}

func (r *reporter) domainLabels(ctx context.Context, domain uint32) *pcp.LabelSet {
	lc := &r.labels
	if int64(domain) != lc.domain {
		lc.domSet = first(r.c.DomainLabels(ctx, domain))
		lc.domain = int64(domain)
	}
	return lc.domSet
}

func (r *reporter) indomLabels(ctx context.Context, indom pcp.InDom) *pcp.LabelSet {
	lc := &r.labels
	if indom != lc.indom {
		lc.indomSet = nil
		if indom != pcp.InDomNull {
			lc.indomSet = first(r.c.InDomLabels(ctx, indom))
		}
		lc.indom = indom
	}
	return lc.indomSet
}

func (r *reporter) clusterLabels(ctx context.Context, pmid pcp.PMID) *pcp.LabelSet {
	lc := &r.labels
	if pmid.Domain() != lc.cluster.Domain() || pmid.Cluster() != lc.cluster.Cluster() {
		lc.clSet = first(r.c.ClusterLabels(ctx, pmid))
		lc.cluster = pmid
	}
	return lc.clSet
}

func (r *reporter) itemLabels(ctx context.Context, pmid pcp.PMID) *pcp.LabelSet {
	lc := &r.labels
	if pmid != lc.item {
		lc.itemSet = first(r.c.ItemLabels(ctx, pmid))
		lc.item = pmid
	}
	return lc.itemSet
}

// instanceLabels returns the instances' label sets, or nil when pmcd gave
// none (the caller then walks the instance names instead).
func (r *reporter) instanceLabels(ctx context.Context, indom pcp.InDom) []pcp.LabelSet {
	r.instName(ctx, indom, pcp.InstNull) // prime the name cache first, as pminfo does
	lc := &r.labels
	if indom != lc.instInDom {
		sets, err := r.c.InstancesLabels(ctx, indom)
		lc.instSets, lc.instErr = sets, err != nil
		if err != nil {
			lc.instSets = nil
		}
		lc.instInDom = indom
	}
	return lc.instSets
}

func (r *reporter) printLabels(what string, sets []*pcp.LabelSet) {
	if json, ok := pcp.MergeLabelSets(sets, nil); ok {
		fmt.Fprintf(r.out, "%slabels %s\n", what, json)
	}
}

func (r *reporter) indomLabelLine(ctx context.Context, indom pcp.InDom) {
	r.printLabels("    ", []*pcp.LabelSet{r.contextLabels(ctx),
		r.domainLabels(ctx, indom.Domain()), r.indomLabels(ctx, indom)})
}

func (r *reporter) metricLabels(ctx context.Context, d pcp.Desc) {
	sets := []*pcp.LabelSet{r.contextLabels(ctx), r.domainLabels(ctx, d.PMID.Domain())}
	if d.InDom != pcp.InDomNull {
		sets = append(sets, r.indomLabels(ctx, d.InDom))
	}
	sets = append(sets, r.clusterLabels(ctx, d.PMID), r.itemLabels(ctx, d.PMID))
	r.printLabels("    ", sets)
}

func (r *reporter) instLabels(ctx context.Context, d pcp.Desc) {
	indom := d.InDom
	if indom == pcp.InDomNull {
		return
	}
	isets := r.instanceLabels(ctx, indom)
	n := len(isets)
	if n == 0 {
		n = len(r.icache)
	}
	base := []*pcp.LabelSet{r.contextLabels(ctx), r.domainLabels(ctx, indom.Domain()),
		r.indomLabels(ctx, indom), r.clusterLabels(ctx, d.PMID), r.itemLabels(ctx, d.PMID)}
	for j := 0; j < n; j++ {
		sets := base
		var inst int32
		if j < len(isets) {
			sets = append(append([]*pcp.LabelSet(nil), base...), &isets[j])
			inst = isets[j].Inst
		} else if j < len(r.icache) {
			inst = r.icache[j].Inst
		} else {
			inst = pcp.InstNull
		}
		json, ok := pcp.MergeLabelSets(sets, nil)
		if !ok {
			continue
		}
		name, found := r.instName(ctx, indom, inst)
		if !found {
			name = "DISAPPEARED"
		}
		fmt.Fprintf(r.out, "    inst [%d or \"%s\"] labels %s\n", inst, name, json)
	}
}
