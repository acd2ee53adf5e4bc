package pmda

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// labelSet encodes labels as a PCP label set for inst: a JSON object with
// the labels sorted by name, as PCP keeps them, each label flagged with
// level. Names must be unique in a set.
func labelSet(inst int32, level uint8, labels []Label) (pcp.LabelSet, error) {
	sorted := slices.Clone(labels)
	slices.SortFunc(sorted, func(x, y Label) int { return strings.Compare(x.Name, y.Name) })
	if len(sorted) >= pcp.MaxLabels {
		return pcp.LabelSet{}, fmt.Errorf("pmda: %d labels: %w", len(sorted), pcp.ErrTooBig)
	}
	var b strings.Builder
	set := pcp.LabelSet{Inst: inst, Labels: make([]pcp.Label, 0, len(sorted))}
	b.WriteByte('{')
	for i, l := range sorted {
		if i > 0 {
			if sorted[i-1].Name == l.Name {
				return pcp.LabelSet{}, fmt.Errorf("pmda: label %q twice: %w", l.Name, pcp.ErrLabel)
			}
			b.WriteByte(',')
		}
		name := appendJSONString(nil, l.Name)
		value, err := appendLabelJSON(nil, l.Value)
		if err != nil {
			return pcp.LabelSet{}, fmt.Errorf("pmda: label %q: %v: %w", l.Name, err, pcp.ErrLabel)
		}
		// The index points inside the quotes of the name.
		nameOff := b.Len() + 1
		b.Write(name)
		b.WriteByte(':')
		valueOff := b.Len()
		b.Write(value)
		if len(name)-2 > 255 || b.Len() >= pcp.MaxLabelJSONLen {
			return pcp.LabelSet{}, fmt.Errorf("pmda: label %q too long: %w", l.Name, pcp.ErrTooBig)
		}
		set.Labels = append(set.Labels, pcp.Label{
			Name: uint16(nameOff), NameLen: uint8(len(name) - 2), Flags: level,
			Value: uint16(valueOff), ValueLen: uint16(len(value)),
		})
	}
	b.WriteByte('}')
	set.JSON = b.String()
	set.NLabels = int32(len(set.Labels))
	return set, nil
}

// Label returns the label sets of one level of the label hierarchy, as a
// LABEL_REQ asks for them: level is one of pcp.LabelDomain, LabelInDom,
// LabelCluster, LabelItem (ident a domain, InDom, PMID, PMID) or
// LabelInstances (ident an InDom, one set per instance, in table order).
// A level without labels gives no sets, as libpcp_pmda answers; the domain
// level has the agent's name besides Config.Labels, or, with
// Config.OwnDomainLabels, only when Config.Labels is empty. pcp.LabelContext gives none: pmcd
// supplies the context's labels itself. An unknown level is pcp.ErrType.
//
// An agent of an interface below 7 (Config.Interface) has no label
// callback in PCP: libpcp_pmda answers every level with no sets, and so
// does Label. Whoever loads such an agent into its own process names its
// domain instead (LoaderDomainLabels). A local context cannot tell the
// interface of an agent in its companion process and takes an empty
// domain level for one below 7, so a Labeler of an interface 7 agent
// leaves that level to the tables, whose answer always names the agent:
// an empty one would get the loader's label where PCP gives none.
func (a *Agent) Label(ctx context.Context, c Client, ident uint32, level uint8) ([]pcp.LabelSet, error) {
	if err := a.begin(ctx, c, pdu.TypeLabelReq, ident); err != nil {
		return nil, err
	}
	if a.Interface() < labelInterface {
		return nil, nil
	}
	if l, ok := a.fetcher.(Labeler); ok {
		if sets, handled, err := l.LabelSets(ctx, c, ident, level); handled || err != nil {
			return sets, err
		}
	}
	one := func(labels []Label) ([]pcp.LabelSet, error) {
		if len(labels) == 0 {
			return nil, nil
		}
		s, err := labelSet(pcp.InstNull, level, labels)
		if err != nil {
			return nil, err
		}
		return []pcp.LabelSet{s}, nil
	}
	switch level &^ (pcp.LabelCompound | pcp.LabelOptional) {
	case pcp.LabelContext:
		return nil, nil
	case pcp.LabelDomain:
		if a.ownDom && len(a.labels) > 0 {
			return one(a.labels)
		}
		labels := append([]Label{{Name: "agent", Value: labelName(a.name)}}, a.labels...)
		return one(labels)
	case pcp.LabelInDom:
		if d := a.indoms[pcp.InDom(ident)]; d != nil {
			return one(d.Labels)
		}
		return nil, nil
	case pcp.LabelCluster:
		if id := pcp.PMID(ident); id.Domain() == a.domain {
			return one(a.cluster[id.Cluster()])
		}
		return nil, nil
	case pcp.LabelItem:
		if m := a.metrics.get(pcp.PMID(ident)); m != nil {
			return one(m.Labels)
		}
		return nil, nil
	case pcp.LabelInstances:
		return a.instanceLabels(ctx, c, pcp.InDom(ident))
	}
	return nil, pcp.ErrType
}

// instanceLabels gives a set per instance of indom, empty ones included,
// as libpcp_pmda does; the null domain has one set for pcp.InstNull.
func (a *Agent) instanceLabels(ctx context.Context, c Client, indom pcp.InDom) ([]pcp.LabelSet, error) {
	if indom == pcp.InDomNull {
		return []pcp.LabelSet{{Inst: pcp.InstNull}}, nil
	}
	insts, err := a.instances(ctx, c, indom)
	if err != nil {
		return nil, nil
	}
	sets := make([]pcp.LabelSet, 0, len(insts))
	for _, in := range insts {
		s := pcp.LabelSet{Inst: in.ID}
		if len(in.Labels) > 0 {
			var err error
			if s, err = labelSet(in.ID, pcp.LabelInstances, in.Labels); err != nil {
				return nil, err
			}
		}
		sets = append(sets, s)
	}
	return sets, nil
}

// labelInterface is the first PMDA interface with a label callback.
const labelInterface = 7

// LoaderDomainLabels is the domain label PCP's loaders give an agent they
// run in their own process that has no label callback (an interface below
// 7, see Label): pmcd, for a "dso" line, names it after the line's agent
// name; libpcp's local context after the shared object's path as the
// table has it. The name is cleaned as an agent's own is ({"agent":NAME},
// without a leading "pmda" or a trailing " DSO").
func LoaderDomainLabels(name string) ([]pcp.LabelSet, error) {
	s, err := labelSet(pcp.InstNull, pcp.LabelDomain, []Label{{Name: "agent", Value: labelName(name)}})
	if err != nil {
		return nil, err
	}
	return []pcp.LabelSet{s}, nil
}

// HasLabelCallback says whether PCP's counterpart of the agent has a
// label callback (interface 7): a loader gives an agent without one its
// domain label itself (LoaderDomainLabels).
func (a *Agent) HasLabelCallback() bool { return a.Interface() >= labelInterface }
