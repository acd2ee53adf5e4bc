package main

import (
	"context"
	"fmt"
	"os"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// fetch is Fetch of the context, which knows the anonymous metrics.
func (r *reporter) fetch(ctx context.Context, pmids []pcp.PMID, res *pcp.Result) error {
	if r.archive != nil {
		if err := r.archive.SetMode(pmapi.ModeForw, r.origin, 0); err != nil {
			fmt.Fprintf(r.errw, "%s: pmSetMode failed: %s\n", r.prog, pcp.TextOf(err))
			r.out.Flush()
			os.Exit(1)
		}
	}
	_, err := r.c.Fetch(ctx, pmids, res)
	return err
}
