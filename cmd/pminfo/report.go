package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
	"github.com/gopcp/gopcp/pmns"
)

// names answers the name-space questions, from pmcd or from -n's file.
type names interface {
	Traverse(ctx context.Context, name string) ([]string, error)
	NameID(ctx context.Context, pmid pcp.PMID) (string, error)
	LookupNames(ctx context.Context, names []string) ([]pcp.PMID, error)
}

type treeNames struct{ t *pmns.Tree }

func (n treeNames) Traverse(_ context.Context, name string) ([]string, error) {
	return n.t.Traverse(name)
}
func (n treeNames) NameID(_ context.Context, pmid pcp.PMID) (string, error) {
	return n.t.NameID(pmid)
}
func (n treeNames) LookupNames(_ context.Context, list []string) ([]pcp.PMID, error) {
	ids := make([]pcp.PMID, len(list))
	found := 0
	var last error
	for i, name := range list {
		id, err := n.t.Lookup(name)
		if err != nil {
			ids[i], last = pcp.PMIDNull, err
			continue
		}
		ids[i] = id
		found++
	}
	if found == 0 || len(list) == 1 {
		return ids, last
	}
	return ids, nil
}

type reporter struct {
	f     *flags
	out   *bufio.Writer
	errw  io.Writer
	prog  string
	names names
	c     pmapi.Source
	host  bool

	batch int

	// archive is the archive context, nil for live sources; fetches
	// start from origin.
	archive *pmapi.ArchiveContext
	origin  pcp.Timestamp
	pending []string
	pdusize int

	icacheInDom pcp.InDom
	icache      []pmapi.Instance
	icacheErr   error

	labels labelCache

	res     pcp.Result // a batch's fetch, see report
	scratch []byte     // a line being built
}

const pduUnit = 4

func (r *reporter) main(ctx context.Context, args []string) int {
	status := 0
	r.pdusize = 5 * pduUnit
	if len(args) == 0 {
		if err := r.traverse(ctx, ""); err != nil {
			fmt.Fprintf(r.errw, "Error: %s\n", pcp.TextOf(err))
			status = 1
		}
	}
	for _, a := range args {
		var err error
		if a != "" && a[0] >= '0' && a[0] <= '9' {
			err = r.digit(ctx, a)
		} else {
			err = r.traverse(ctx, a)
		}
		if err != nil {
			fmt.Fprintf(r.errw, "Error: %s: %s\n", a, pcp.TextOf(err))
			status = 1
		}
	}
	r.report(ctx)
	return status
}

// traverse reports the names at or below name. A traversal that fails
// part way (a local context's dynamic subtree without its agent) still
// reports the names found before it, as libpcp's walk has handed them to
// pminfo one at a time by then.
func (r *reporter) traverse(ctx context.Context, name string) error {
	list, err := r.names.Traverse(ctx, name)
	for _, n := range list {
		r.metric(ctx, n)
	}
	return err
}

// metric queues a name for the next batch, as pminfo's dometric does,
// shrinking the batch when the names would make too large a PDU.
func (r *reporter) metric(ctx context.Context, name string) {
	if name == "" {
		fmt.Fprint(r.out, "PMNS appears to be empty!\n")
		return
	}
	r.pending = append(r.pending, name)
	if r.host {
		r.pdusize += pduUnit + (len(name)+pduUnit-1)/pduUnit*pduUnit
		if r.pdusize > 63*1024 {
			r.batch = len(r.pending)
		}
	}
	if len(r.pending) >= r.batch {
		r.report(ctx)
	}
}

// digit handles "domain.cluster.item" (a PMID) and "domain.serial" (an
// instance domain) arguments, read as sscanf's %u does.
func (r *reporter) digit(ctx context.Context, arg string) error {
	nums := scanUints(arg, 3)
	switch len(nums) {
	case 3:
		name, err := r.names.NameID(ctx, pcp.NewPMID(nums[0], nums[1], nums[2]))
		if err != nil {
			return err
		}
		return r.traverse(ctx, name)
	case 2:
		r.indom(ctx, pcp.NewInDom(nums[0], nums[1]))
		return nil
	}
	return pcp.ErrName
}

// scanUints reads up to max dot-separated unsigned numbers from the start
// of s, stopping at the first that is missing.
func scanUints(s string, max int) []uint32 {
	var out []uint32
	for len(out) < max {
		i := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == 0 {
			break
		}
		n, _ := strconv.ParseUint(s[:i], 10, 64)
		out = append(out, uint32(n))
		s = s[i:]
		if len(out) == max || len(s) == 0 || s[0] != '.' {
			break
		}
		s = s[1:]
	}
	return out
}
