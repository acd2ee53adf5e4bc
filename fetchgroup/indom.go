package fetchgroup

import (
	"context"
	"slices"

	"github.com/gopcp/gopcp/pcp"
)

// InDom is the handle of every instance of one metric of a group, filled
// by each Fetch in instance order.
type InDom[T Value] struct {
	pmid pcp.PMID
	desc pcp.Desc
	conv conversion
	out  pcp.Type

	insts []Instance[T] // the first n filled; kept between fetches
	n     int
	err   error
}

// Instance is one instance's part of an InDom: its number, its name ("" if
// the instance domain does not name it, or for a metric without one), its
// value and why there is none (Value is then T's sentinel).
type Instance[T Value] struct {
	Inst  int32
	Name  string
	Value T
	Err   error
}

// indomNames caches an instance domain's names for the group's InDom
// handles, asked for again only when a fetch shows an instance it lacks.
type indomNames struct {
	names     map[int32]string
	refreshed bool
}

// ExtendInDom adds every instance of a metric to g, as
// pmExtendFetchGroup_indom does, converted as opts.Scale says (see
// InDomOptions; nil is the zero value). Each Fetch delivers every
// instance the fetch returns, however many: unlike libpcp, there is no
// maximum to choose, the handle's storage growing to the largest fetch
// (which PCP's limit on a PDU's size bounds). A metric without an
// instance domain gives one instance, numbered PM_IN_NULL. The instance
// profile is opened to every instance of the metric's domain.
func ExtendInDom[T Value](ctx context.Context, g *Group, metric string, opts *InDomOptions) (*InDom[T], error) {
	var o InDomOptions
	if opts != nil {
		o = *opts
	}
	scale := o.Scale
	h := &InDom[T]{out: typeOf[T]()}
	pmid, d, err := g.lookup(ctx, metric)
	if err != nil {
		return nil, extendError(metric, err)
	}
	h.pmid, h.desc = pmid, d
	if d.InDom != pcp.InDomNull {
		if _, ok := g.indoms[d.InDom]; !ok {
			g.indoms[d.InDom] = &indomNames{}
			if err := g.src.AddProfile(d.InDom, nil); err != nil {
				return nil, extendError(metric, err)
			}
		}
	}
	if h.conv, err = prepare(d, scale, h.out); err != nil {
		return nil, extendError(metric, err)
	}
	g.addPMID(pmid)
	h.clear()
	g.members = append(g.members, h)
	return h, nil
}

// Len is the number of instances the last Fetch filled.
func (h *InDom[T]) Len() int { return h.n }

// Instances are the instances the last Fetch filled, in instance order.
// The slice is the handle's and is overwritten by the next Fetch.
func (h *InDom[T]) Instances() []Instance[T] { return h.insts[:h.n] }

// Err is the error of the metric as a whole: its fetch error, pcp.ErrValue
// when the fetch had no value set for it; nil otherwise, even with no
// instances.
func (h *InDom[T]) Err() error { return h.err }

// Desc is the metric's descriptor.
func (h *InDom[T]) Desc() pcp.Desc { return h.desc }

func (h *InDom[T]) clear() {
	h.n = 0
	h.err = nil
}

// grow makes room for n instances, each with T's sentinel and
// pcp.ErrValue until filled.
func (h *InDom[T]) grow(n int) {
	if cap(h.insts) < n {
		h.insts = make([]Instance[T], n)
	}
	h.insts = h.insts[:n]
	s := fromAtom[T](ptr(sentinel(h.out)))
	for i := range h.insts {
		h.insts[i] = Instance[T]{Value: s, Err: pcp.ErrValue}
	}
}

func ptr[V any](v V) *V { return &v }

func (h *InDom[T]) reset() {
	if h.desc.Sem != pcp.SemDiscrete {
		h.clear()
	}
}

func (h *InDom[T]) fill(ctx context.Context, g *Group, s *sample) {
	i := slices.IndexFunc(s.sets, func(vs pcp.ValueSet) bool { return vs.PMID == h.pmid })
	if i < 0 {
		h.err = pcp.ErrValue
		return
	}
	vs := &s.sets[i]
	if vs.NumVal < 0 {
		h.err = pcp.Error(vs.NumVal)
		return
	}
	if h.desc.Sem == pcp.SemDiscrete {
		if vs.NumVal == 0 {
			return
		}
		h.clear()
	}
	names := g.names(ctx, h.desc.InDom, vs)
	h.grow(len(vs.Values))
	for j := range vs.Values {
		inst := vs.Values[j].Inst
		out := &h.insts[j]
		out.Inst = inst
		out.Name = names[inst]
		a, err := g.value(s, 0, h.pmid, &h.desc, inst, &h.conv, h.out, at{i, j})
		if err != nil {
			out.Err = err
			continue
		}
		out.Value, out.Err = fromAtom[T](&a), nil
	}
	h.n = len(vs.Values)
	h.err = nil
}

// names returns the names of indom's instances, asking the context again
// when vs holds an instance not seen before. A failure to get them leaves
// the instances unnamed, and is tried again at the next fetch.
func (g *Group) names(ctx context.Context, indom pcp.InDom, vs *pcp.ValueSet) map[int32]string {
	c := g.indoms[indom]
	if c == nil {
		return nil
	}
	if c.refreshed {
		for j := range vs.Values {
			if _, ok := c.names[vs.Values[j].Inst]; !ok {
				c.refreshed = false
				break
			}
		}
	}
	if !c.refreshed {
		c.refreshed = true
		list, err := g.src.GetInDom(ctx, indom)
		if err != nil {
			c.refreshed = false
		}
		c.names = make(map[int32]string, len(list))
		for _, in := range list {
			c.names[in.Inst] = in.Name
		}
	}
	return c.names
}
