package fetchgroup

import (
	"context"

	"github.com/gopcp/gopcp/pcp"
)

// The derived-metrics layer every group has asks its context for names
// and descriptors in batches; the fake answers them one by one, with
// the first failure as the batch's error.

func (f *fakeSource) LookupNames(ctx context.Context, names []string) ([]pcp.PMID, error) {
	pmids := make([]pcp.PMID, len(names))
	var first error
	for i, n := range names {
		p, err := f.LookupName(ctx, n)
		if err != nil {
			p = pcp.PMIDNull
			if first == nil {
				first = err
			}
		}
		pmids[i] = p
	}
	return pmids, first
}

func (f *fakeSource) LookupDescs(ctx context.Context, pmids []pcp.PMID) ([]pcp.Desc, error) {
	descs := make([]pcp.Desc, len(pmids))
	for i, p := range pmids {
		d, err := f.LookupDesc(ctx, p)
		if err != nil {
			return nil, err
		}
		descs[i] = d
	}
	return descs, nil
}
