package main

import (
	"context"
	"fmt"
	"os"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// withAnon adds libpcp's anonymous event metrics (pmapi.AnonMetrics) to
// a namespace read without a context (-n with only -m); with a context,
// pmapi.WithAnonMetrics does it for every question.
type withAnon struct{ names }

func (w withAnon) Traverse(ctx context.Context, name string) ([]string, error) {
	list, err := w.names.Traverse(ctx, name)
	return pmapi.AnonTraverse(name, list, err)
}

func (w withAnon) NameID(ctx context.Context, pmid pcp.PMID) (string, error) {
	if m := pmapi.AnonByPMID(pmid); m != nil {
		return m.Name, nil
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
		for _, m := range pmapi.AnonMetrics {
			if m.Name == n {
				ids[i], found = m.PMID, true
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

// fetch is Fetch of the context, which knows the anonymous metrics.
func (r *reporter) fetch(ctx context.Context, pmids []pcp.PMID, res *pcp.Result) error {
	if r.archive != nil {
		if err := r.archive.SetMode(pmapi.ModeForw, r.origin, 0); err != nil {
			fmt.Fprintf(r.errw, "%s: pmSetMode failed: %s\n", r.prog, errText(err))
			r.out.Flush()
			os.Exit(1)
		}
	}
	_, err := r.c.Fetch(ctx, pmids, res)
	return err
}
