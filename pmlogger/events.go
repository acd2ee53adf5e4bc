package pmlogger

import (
	"context"
	"fmt"

	"github.com/gopcp/gopcp/pcp"
)

// eventParams puts into the archive the descriptors of the metrics that
// an event array's records carry as parameters, so that the archive can
// be read without pmcd, as PCP's pmlogger does for (low resolution) event
// metrics. A parameter pmcd cannot name or describe still gets a made-up
// name or a minimal descriptor, with a warning in the log.
func (l *Logger) eventParams(ctx context.Context, vs *pcp.ValueSet) error {
	for _, v := range vs.Values[:max(vs.NumVal, 0)] {
		recs, err := pcp.UnpackEvents(v.Block.Data, false)
		if err != nil {
			return fmt.Errorf("Failed to process event records: %w", err)
		}
		if len(recs) == 0 {
			// PCP's pmlogger looks no further than the first instance
			// without records; the archives it writes show it.
			return nil
		}
		for _, r := range recs {
			for _, p := range r.Params {
				if p.PMID == pcp.PMIDEventFlags || p.PMID == pcp.PMIDEventMissed || l.descs[p.PMID] {
					continue
				}
				if err := l.putParamDesc(ctx, p.PMID); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// putParamDesc writes one event parameter's descriptor and names.
func (l *Logger) putParamDesc(ctx context.Context, pmid pcp.PMID) error {
	names, err := l.src.NameAll(ctx, pmid)
	if err != nil || len(names) == 0 {
		names = []string{"event_param." + pmid.String()}
		fmt.Fprintf(l.log, "Warning: metric %s has no name, using %s\n", pmid, names[0])
	}
	desc, err := l.src.LookupDesc(ctx, pmid)
	if err != nil {
		desc = pcp.Desc{PMID: pmid, Type: pcp.TypeAggregate, InDom: pcp.InDomNull, Sem: pcp.SemDiscrete}
		fmt.Fprintf(l.log, "Warning: metric %s (%s) has no descriptor, using a default one\n", names[0], pmid)
	}
	if err := l.w.PutDesc(desc, names); err != nil {
		return err
	}
	l.descs[pmid] = true
	return nil
}
