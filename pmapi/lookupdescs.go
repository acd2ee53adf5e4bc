package pmapi

import (
	"context"
	"fmt"

	"github.com/gopcp/gopcp/pcp"
)

// LookupDescsEach is pmLookupDescs made of single lookups, for contexts
// that answer a descriptor at a time (archives, local agents): a metric
// whose lookup fails gets a descriptor with pcp.PMIDNull, except that a
// request for one metric fails with that metric's error, and an empty
// request is PM_ERR_TOOSMALL.
func LookupDescsEach(ctx context.Context, pmids []pcp.PMID, lookup func(context.Context, pcp.PMID) (pcp.Desc, error)) ([]pcp.Desc, error) {
	if len(pmids) == 0 {
		return nil, fmt.Errorf("pmapi: LookupDescs: %w", pcp.ErrTooSmall)
	}
	out := make([]pcp.Desc, len(pmids))
	for i, id := range pmids {
		d, err := lookup(ctx, id)
		if err != nil {
			if len(pmids) == 1 {
				return nil, err
			}
			d = pcp.Desc{PMID: pcp.PMIDNull}
		}
		out[i] = d
	}
	return out, nil
}
