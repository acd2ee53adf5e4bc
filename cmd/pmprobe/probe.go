package main

import (
	"bufio"
	"context"
	"fmt"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// noInDom marks the instance cache empty; no instance domain has it.
const noInDom = pcp.InDom(0xfffffffe)

// pdusMax is PDU_MAX, the PDU types pmprobe -V prints.
const pdusMax = 23

// chunkCeiling is PCP's PDU_CHUNK * 64, the bytes a batch of names may
// take in one lookup.
const chunkCeiling = 1024 * 64

type prober struct {
	f   *flags
	src pmapi.Source
	out *bufio.Writer

	names []string
	pmids []pcp.PMID

	// archive is the archive context, nil for live sources; each metric
	// is fetched forwards from origin
	archive *pmapi.ArchiveContext
	origin  pcp.Timestamp

	// the instances of the last instance domain asked for, pmprobe's
	// lookup cache
	// stuck is the name no batch could hold (-b 0 or less, or a name
	// longer than a lookup takes), where lookup stopped
	stuck string

	lastInDom pcp.InDom
	insts     []pmapi.Instance
	instErr   error
}

func (p *prober) probe(ctx context.Context, args []string) {
	switch {
	case len(args) == 0:
		// libpcp's traversal hands pmprobe each name as it finds it;
		// one that stops part way (a local context's dynamic subtree
		// whose agent is not loaded) leaves the names found before,
		// and pmprobe does not report the stop.
		list, _ := p.src.Traverse(ctx, "")
		p.names = append(p.names, list...)
	case p.f.faster:
		p.names = append(p.names, args...)
	default:
		for _, a := range args {
			list, err := p.src.Traverse(ctx, a)
			p.names = append(p.names, list...)
			if err != nil {
				fmt.Fprintf(p.out, "%s %d %s\n", a, pcp.CodeOf(err, pcp.ErrGeneric).Code(), pcp.TextOf(err))
			}
		}
	}
	p.lookup(ctx)
	p.report(ctx)
}

// lookup finds the PMIDs in batches that keep each PMNS_NAMES request
// small, dropping (and reporting) names that are not found.
func (p *prober) lookup(ctx context.Context) {
	var names []string
	var pmids []pcp.PMID
	for idx := 0; idx < len(p.names); {
		b, bytes := 0, 0
		for ; idx+b < len(p.names); b++ {
			n := len(p.names[idx+b]) + 32
			if b > p.f.batch || n+bytes >= chunkCeiling {
				b--
				break
			}
			bytes += n
		}
		if b <= 0 {
			// PCP's pmprobe makes no progress here and loops for ever
			// (-b 0 or less, or a name of 64 KB): ours stops and says so
			p.stuck = p.names[idx]
			break
		}
		batch := p.names[idx : idx+b]
		ids, err := p.src.LookupNames(ctx, batch)
		for i, name := range batch {
			if err != nil && (i >= len(ids) || ids[i] == pcp.PMIDNull) {
				fmt.Fprintf(p.out, "%s %d %s\n", name, pcp.CodeOf(err, pcp.ErrGeneric).Code(), pcp.TextOf(err))
				continue
			}
			// after a partial success the names not found stay, with
			// PM_ID_NULL, as in PCP
			id := pcp.PMIDNull
			if i < len(ids) {
				id = ids[i]
			}
			names = append(names, name)
			pmids = append(pmids, id)
		}
		idx += b
	}
	p.names, p.pmids = names, pmids
}

func (p *prober) instances(ctx context.Context, indom pcp.InDom) ([]pmapi.Instance, error) {
	if indom != p.lastInDom {
		if p.archive != nil {
			p.insts, p.instErr = p.archive.GetInDomArchive(indom)
		} else {
			p.insts, p.instErr = p.src.GetInDom(ctx, indom)
		}
		p.lastInDom = indom
	}
	return p.insts, p.instErr
}

func (p *prober) report(ctx context.Context) {
	f := p.f
	var res pcp.Result
	for fetched := 0; fetched < len(p.pmids); {
		batch := 1
		if f.force && (f.internal || f.external) {
			p.indomOnly(ctx, fetched)
			fetched++
			continue
		}
		batch = min(len(p.pmids)-fetched, max(f.batch, 1))
		if f.batch <= 0 {
			batch = len(p.pmids) - fetched
		}
		if p.archive != nil {
			// from archives one metric a fetch, each from the origin
			if err := p.archive.SetMode(pmapi.ModeForw, p.origin, 0); err != nil {
				fmt.Fprintf(p.out, "%d %s (pmSetMode)\n", pcp.CodeOf(err, pcp.ErrGeneric).Code(), pcp.TextOf(err))
				fetched++
				continue
			}
			batch = 1
		}
		if _, err := p.src.Fetch(ctx, p.pmids[fetched:fetched+batch], &res); err != nil {
			fmt.Fprintf(p.out, "%s %d %s (pmFetch)\n", p.names[fetched], pcp.CodeOf(err, pcp.ErrGeneric).Code(), pcp.TextOf(err))
			fetched += batch
			continue
		}
		for b := 0; b < batch; b++ {
			p.metric(ctx, p.names[fetched+b], p.pmids[fetched+b], &res.Sets[b])
		}
		fetched += batch
	}
}

// indomOnly is -f with -i or -I: the instance domain's instances without
// a fetch.
func (p *prober) indomOnly(ctx context.Context, i int) {
	f := p.f
	d, err := p.src.LookupDesc(ctx, p.pmids[i])
	if err != nil {
		fmt.Fprintf(p.out, "%s %d %s (pmLookupDesc)\n", p.names[i], pcp.CodeOf(err, pcp.ErrGeneric).Code(), pcp.TextOf(err))
		return
	}
	if d.InDom == pcp.InDomNull {
		fmt.Fprintf(p.out, "%s 1 PM_IN_NULL", p.names[i])
		if f.internal && f.external {
			p.out.WriteString(" PM_IN_NULL")
		}
		p.out.WriteByte('\n')
		return
	}
	insts, err := p.instances(ctx, d.InDom)
	if err != nil {
		fmt.Fprintf(p.out, "%s %d %s (pmGetInDom)\n", p.names[i], pcp.CodeOf(err, pcp.ErrGeneric).Code(), pcp.TextOf(err))
		return
	}
	fmt.Fprintf(p.out, "%s %d", p.names[i], len(insts))
	for _, in := range insts {
		if f.internal {
			fmt.Fprintf(p.out, " ?%d", in.Inst)
		}
		if f.external {
			fmt.Fprintf(p.out, " \"%s\"", in.Name)
		}
	}
	p.out.WriteByte('\n')
}

func (p *prober) metric(ctx context.Context, name string, pmid pcp.PMID, vs *pcp.ValueSet) {
	f := p.f
	fmt.Fprintf(p.out, "%s ", name)
	var d pcp.Desc
	if f.internal || f.external || f.values {
		var err error
		if d, err = p.src.LookupDesc(ctx, pmid); err != nil {
			fmt.Fprintf(p.out, "%d %s (pmLookupDesc)\n", pcp.CodeOf(err, pcp.ErrGeneric).Code(), pcp.TextOf(err))
			return
		}
	}
	switch {
	case vs.NumVal < 0:
		fmt.Fprintf(p.out, "%d %s", vs.NumVal, pcp.ErrorText(vs.NumVal))
	case vs.NumVal == 0:
		p.out.WriteString("0")
	default:
		fmt.Fprintf(p.out, "%d", vs.NumVal)
		if f.values {
			for j := range vs.Values {
				p.out.WriteByte(' ')
				p.out.WriteString(pcp.FormatValue(vs.ValFmt, d.Type, &vs.Values[j], 1))
			}
		}
		if f.internal || f.external {
			if d.InDom == pcp.InDomNull {
				p.out.WriteString(" PM_IN_NULL")
				if f.internal && f.external {
					p.out.WriteString(" PM_IN_NULL")
				}
				break
			}
			insts, err := p.instances(ctx, d.InDom)
			if err != nil {
				fmt.Fprintf(p.out, "%d %s (pmGetInDom)\n", pcp.CodeOf(err, pcp.ErrGeneric).Code(), pcp.TextOf(err))
				return
			}
			for _, v := range vs.Values {
				if f.internal {
					fmt.Fprintf(p.out, " ?%d", v.Inst)
				}
				if f.external {
					k := 0
					for k < len(insts) && insts[k].Inst != v.Inst {
						k++
					}
					if k < len(insts) {
						fmt.Fprintf(p.out, " \"%s\"", insts[k].Name)
					} else {
						fmt.Fprintf(p.out, " ?%d", v.Inst)
					}
				}
			}
		}
	}
	p.out.WriteByte('\n')
}

// pduCounts is -V's report of the PDUs exchanged with pmcd.
func (p *prober) pduCounts(out, in [pmapi.NumPDUTypes]uint64) {
	for _, row := range []struct {
		label string
		n     [pmapi.NumPDUTypes]uint64
	}{{"PDUs send", out}, {"PDUs recv", in}} {
		p.out.WriteString(row.label)
		total := uint64(0)
		for i := 0; i < pdusMax; i++ {
			fmt.Fprintf(p.out, " %3d", row.n[i])
			total += row.n[i]
		}
		fmt.Fprintf(p.out, "\nTotal: %d\n", total)
	}
}
