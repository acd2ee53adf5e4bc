package main

import (
	"context"
	"errors"
	"strings"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// libpcp registers two anonymous derived metrics in every context,
// event.flags and event.missed (see pmUnpackEventRecords(3)), so pminfo
// lists them after pmcd's names. Until pmapi has derived metrics this
// file stands in for them.
// TODO: move into pmapi with derived metric support.

type anonMetric struct {
	name    string
	pmid    pcp.PMID
	oneline string
	help    string
}

var anonMetrics = []anonMetric{
	{"event.flags", pcp.NewPMID(511, 0, 1), "Flags for event records",
		"An anonymous derived metric that is used to encode the event flags\n" +
			"associated with event records.   See pmUnpackEventRecords(3).\n"},
	{"event.missed", pcp.NewPMID(511, 0, 2), "Count of missed event records",
		"An anonymous derived metric that is used to encode the number of\n" +
			"event records missed because either the PMDA could not keep up\n" +
			"or the PMAPI client did not collect the event records fast\n" +
			"enough.  See pmUnpackEventRecords(3).\n"},
}

func anonByPMID(pmid pcp.PMID) *anonMetric {
	for i := range anonMetrics {
		if anonMetrics[i].pmid == pmid {
			return &anonMetrics[i]
		}
	}
	return nil
}

func anonDesc(pmid pcp.PMID) pcp.Desc {
	return pcp.Desc{PMID: pmid, Type: pcp.TypeU32, InDom: pcp.InDomNull, Sem: pcp.SemDiscrete}
}

// withAnon adds the anonymous metrics to a name space.
type withAnon struct{ names }

func (w withAnon) Traverse(ctx context.Context, name string) ([]string, error) {
	list, err := w.names.Traverse(ctx, name)
	var extra []string
	for _, m := range anonMetrics {
		if name == "" || m.name == name || strings.HasPrefix(m.name, name+".") {
			extra = append(extra, m.name)
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

func (w withAnon) NameID(ctx context.Context, pmid pcp.PMID) (string, error) {
	if m := anonByPMID(pmid); m != nil {
		return m.name, nil
	}
	return w.names.NameID(ctx, pmid)
}

func (w withAnon) LookupNames(ctx context.Context, list []string) ([]pcp.PMID, error) {
	var rest []string
	var restAt []int
	ids := make([]pcp.PMID, len(list))
	for i, n := range list {
		ids[i] = pcp.PMIDNull
		found := false
		for _, m := range anonMetrics {
			if m.name == n {
				ids[i], found = m.pmid, true
			}
		}
		if !found {
			rest = append(rest, n)
			restAt = append(restAt, i)
		}
	}
	if len(rest) == 0 {
		return ids, nil
	}
	got, err := w.names.LookupNames(ctx, rest)
	for j, id := range got {
		ids[restAt[j]] = id
	}
	if err != nil && len(rest) == len(list) {
		return ids, err
	}
	// some names were found: libpcp reports no error
	return ids, nil
}

// lookupDesc is LookupDesc knowing the anonymous metrics.
func (r *reporter) lookupDesc(ctx context.Context, pmid pcp.PMID) (pcp.Desc, error) {
	if anonByPMID(pmid) != nil {
		return anonDesc(pmid), nil
	}
	return r.c.LookupDesc(ctx, pmid)
}

// lookupText is LookupText knowing the anonymous metrics.
func (r *reporter) lookupText(ctx context.Context, pmid pcp.PMID, level pmapi.TextLevel) (string, error) {
	if m := anonByPMID(pmid); m != nil {
		if level == pmapi.TextOneLine {
			return m.oneline, nil
		}
		return m.help, nil
	}
	return r.c.LookupText(ctx, pmid, level)
}

// fetch is Fetch knowing the anonymous metrics, which have no values
// outside event records.
func (r *reporter) fetch(ctx context.Context, pmids []pcp.PMID, res *pcp.Result) error {
	var real []pcp.PMID
	for _, id := range pmids {
		if anonByPMID(id) == nil {
			real = append(real, id)
		}
	}
	var got pcp.Result
	if len(real) > 0 {
		if _, err := r.c.Fetch(ctx, real, &got); err != nil {
			return err
		}
	}
	res.Timestamp = got.Timestamp
	res.Sets = make([]pcp.ValueSet, len(pmids))
	j := 0
	for i, id := range pmids {
		if anonByPMID(id) != nil {
			res.Sets[i] = pcp.ValueSet{PMID: id}
			continue
		}
		res.Sets[i] = got.Sets[j]
		j++
	}
	return nil
}
