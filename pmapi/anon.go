package pmapi

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmns"
)

// AnonMetric is one of the anonymous metrics libpcp defines in every
// context for the parameters of event records that are not metrics of
// any agent (see pmUnpackEventRecords): event.flags and event.missed.
// They have descriptors but never values of their own. They are derived
// metrics: package pmapi/derived gives every context them, with their
// help text, along with the other derived metrics; this table serves
// readers of a namespace without a context.
type AnonMetric struct {
	Name string
	PMID pcp.PMID
}

// AnonMetrics are the anonymous event metrics.
var AnonMetrics = []AnonMetric{
	{"event.flags", pcp.PMIDEventFlags},
	{"event.missed", pcp.PMIDEventMissed},
}

// AnonByPMID returns the anonymous metric with a PMID, or nil.
func AnonByPMID(pmid pcp.PMID) *AnonMetric {
	for i := range AnonMetrics {
		if AnonMetrics[i].PMID == pmid {
			return &AnonMetrics[i]
		}
	}
	return nil
}

func anonByName(name string) *AnonMetric {
	for i := range AnonMetrics {
		if AnonMetrics[i].Name == name {
			return &AnonMetrics[i]
		}
	}
	return nil
}

// AnonDesc is the descriptor of an anonymous metric.
func AnonDesc(pmid pcp.PMID) pcp.Desc {
	return pcp.Desc{PMID: pmid, Type: pcp.TypeU32, InDom: pcp.InDomNull, Sem: pcp.SemDiscrete}
}

// AnonTraverse adds the anonymous metrics at or below name to a
// traversal's list (and err, pcp.ErrName when name is only theirs), as
// libpcp's traversal of the namespace and derived names does.
func AnonTraverse(name string, list []string, err error) ([]string, error) {
	var extra []string
	for _, m := range AnonMetrics {
		if name == "" || m.Name == name || strings.HasPrefix(m.Name, name+".") {
			extra = append(extra, m.Name)
		}
	}
	if err != nil {
		if len(extra) > 0 && errors.Is(err, pcp.ErrName) {
			return extra, nil
		}
		return nil, err
	}
	return append(list, extra...), nil
}

// withAnon is a Source that knows the anonymous metrics.
type withAnon struct{ Source }

// WithAnonMetrics returns src with libpcp's anonymous event metrics
// (AnonMetrics) added to its names, descriptors and fetches, but none of
// the other derived metrics; derived.Wrap gives them all, help text
// included. The result is safe for concurrent use when src is.
func WithAnonMetrics(src Source) Source { return withAnon{src} }

func (w withAnon) LookupName(ctx context.Context, name string) (pcp.PMID, error) {
	if m := anonByName(name); m != nil {
		return m.PMID, nil
	}
	return w.Source.LookupName(ctx, name)
}

func (w withAnon) LookupNames(ctx context.Context, names []string) ([]pcp.PMID, error) {
	ids := make([]pcp.PMID, len(names))
	var rest []string
	var restAt []int
	for i, n := range names {
		ids[i] = pcp.PMIDNull
		if m := anonByName(n); m != nil {
			ids[i] = m.PMID
			continue
		}
		rest = append(rest, n)
		restAt = append(restAt, i)
	}
	if len(rest) == 0 {
		return ids, nil
	}
	got, err := w.Source.LookupNames(ctx, rest)
	for j, id := range got {
		if j < len(restAt) {
			ids[restAt[j]] = id
		}
	}
	if err != nil && len(rest) == len(names) {
		return ids, err
	}
	// some names were found: libpcp reports no error
	return ids, nil
}

func (w withAnon) NameID(ctx context.Context, pmid pcp.PMID) (string, error) {
	if m := AnonByPMID(pmid); m != nil {
		return m.Name, nil
	}
	return w.Source.NameID(ctx, pmid)
}

func (w withAnon) NameAll(ctx context.Context, pmid pcp.PMID) ([]string, error) {
	if m := AnonByPMID(pmid); m != nil {
		return []string{m.Name}, nil
	}
	return w.Source.NameAll(ctx, pmid)
}

func (w withAnon) anonChildren(name string) []pmns.Child {
	var kids []pmns.Child
	for _, m := range AnonMetrics {
		rest, ok := strings.CutPrefix(m.Name, name+".")
		if name == "" {
			rest, ok = m.Name, true
		}
		if !ok {
			continue
		}
		child, _, deeper := strings.Cut(rest, ".")
		if !slices.ContainsFunc(kids, func(c pmns.Child) bool { return c.Name == child }) {
			kids = append(kids, pmns.Child{Name: child, Leaf: !deeper})
		}
	}
	return kids
}

func (w withAnon) ChildrenStatus(ctx context.Context, name string) ([]pmns.Child, error) {
	kids, err := w.Source.ChildrenStatus(ctx, name)
	extra := w.anonChildren(name)
	if err != nil && (len(extra) == 0 || !errors.Is(err, pcp.ErrName)) {
		return nil, err
	}
	for _, k := range extra {
		if !slices.ContainsFunc(kids, func(c pmns.Child) bool { return c.Name == k.Name }) {
			kids = append(kids, k)
		}
	}
	return kids, nil
}

func (w withAnon) Children(ctx context.Context, name string) ([]string, error) {
	kids, err := w.ChildrenStatus(ctx, name)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(kids))
	for i, k := range kids {
		names[i] = k.Name
	}
	return names, nil
}

func (w withAnon) Traverse(ctx context.Context, name string) ([]string, error) {
	list, err := w.Source.Traverse(ctx, name)
	return AnonTraverse(name, list, err)
}

func (w withAnon) LookupDesc(ctx context.Context, pmid pcp.PMID) (pcp.Desc, error) {
	if AnonByPMID(pmid) != nil {
		return AnonDesc(pmid), nil
	}
	return w.Source.LookupDesc(ctx, pmid)
}

func (w withAnon) LookupDescs(ctx context.Context, pmids []pcp.PMID) ([]pcp.Desc, error) {
	out := make([]pcp.Desc, len(pmids))
	var rest []pcp.PMID
	for _, id := range pmids {
		if AnonByPMID(id) == nil {
			rest = append(rest, id)
		}
	}
	var got []pcp.Desc
	if len(rest) > 0 {
		var err error
		if got, err = w.Source.LookupDescs(ctx, rest); err != nil {
			return nil, err
		}
	}
	j := 0
	for i, id := range pmids {
		if AnonByPMID(id) != nil {
			out[i] = AnonDesc(id)
			continue
		}
		out[i] = got[j]
		j++
	}
	return out, nil
}

func (w withAnon) LookupText(ctx context.Context, pmid pcp.PMID, level TextLevel) (string, error) {
	if AnonByPMID(pmid) != nil {
		return "", fmt.Errorf("pmapi: LookupText %s: %w", pmid, pcp.ErrText)
	}
	return w.Source.LookupText(ctx, pmid, level)
}

// Fetch gives the anonymous metrics empty value sets, as libpcp's derived
// metrics without operands give.
func (w withAnon) Fetch(ctx context.Context, pmids []pcp.PMID, r *pcp.Result) (StateChange, error) {
	anon := false
	for _, id := range pmids {
		if AnonByPMID(id) != nil {
			anon = true
			break
		}
	}
	if !anon {
		return w.Source.Fetch(ctx, pmids, r)
	}
	var real []pcp.PMID
	for _, id := range pmids {
		if AnonByPMID(id) == nil {
			real = append(real, id)
		}
	}
	var got pcp.Result
	var sc StateChange
	if len(real) == 0 && w.Source.Kind() == KindArchive {
		// an archive still moves on in time, as libpcp's fetch of
		// nothing but derived metrics does
		real = []pcp.PMID{pcp.PMIDNull}
	}
	if len(real) > 0 {
		var err error
		if sc, err = w.Source.Fetch(ctx, real, &got); err != nil {
			return sc, err
		}
	}
	r.Reset()
	r.Timestamp = got.Timestamp
	r.Sets = slices.Grow(r.Sets, len(pmids))[:len(pmids)]
	j := 0
	for i, id := range pmids {
		if AnonByPMID(id) != nil {
			r.Sets[i] = pcp.ValueSet{PMID: id}
			continue
		}
		r.Sets[i] = got.Sets[j]
		j++
	}
	return sc, nil
}
