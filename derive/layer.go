package derive

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmns"
)

// Base is the context a Layer extends: a live host, an archive or local
// agents. Its methods have the shapes of pmapi.Source's, which a
// pmapi context satisfies with one thin adapter for Fetch (pmapi's also returns
// pmcd's state-change flags). LookupNames answers pcp.PMIDNull for
// unknown names in a list of several, and LookupDescs a Desc whose PMID
// is pcp.PMIDNull for PMIDs it cannot describe.
type Base interface {
	LookupNames(ctx context.Context, names []string) ([]pcp.PMID, error)
	LookupDescs(ctx context.Context, pmids []pcp.PMID) ([]pcp.Desc, error)
	LookupInDom(ctx context.Context, indom pcp.InDom, name string) (int32, error)
	NameInDom(ctx context.Context, indom pcp.InDom, inst int32) (string, error)
	Fetch(ctx context.Context, pmids []pcp.PMID, r *pcp.Result) error
}

// Namespace is the part of a Base's namespace that a Layer merges
// derived names into; a Base without it gets derived names only.
type Namespace interface {
	NameID(ctx context.Context, pmid pcp.PMID) (string, error)
	ChildrenStatus(ctx context.Context, name string) ([]pmns.Child, error)
	Traverse(ctx context.Context, name string) ([]string, error)
}

// metric is one derived metric as a context sees it.
type metric struct {
	def     *Def
	global  bool
	masked  bool // a global hidden by a per-context metric of the same name
	bound   bool // binding attempted
	binding bool // binding under way (a definition that uses itself)
	expr    *bound
	err     error // why binding failed
}

// Layer adds derived metrics to a Base: the registry's global ones
// (including any registered later) and its own. It is safe for concurrent
// use; fetches are serialised because delta() and rate() keep state.
type Layer struct {
	src Base
	reg *Registry

	mu      sync.Mutex
	metrics []*metric
	seen    int // registry definitions copied so far
	local   int // per-context metrics added
	limit   int // most per-context metrics allowed; -1 for no limit
	scratch pcp.Result
	fetch   fetchState
	index   map[pcp.PMID]*metric // unmasked metrics by PMID; nil when stale
}

// NewLayer layers the derived metrics of reg (Global() when nil) over src.
func NewLayer(src Base, reg *Registry) *Layer {
	if reg == nil {
		reg = Global()
	}
	reg.mu.Lock()
	limit := reg.limit
	reg.mu.Unlock()
	return &Layer{src: src, reg: reg, limit: limit}
}

// SetLimit bounds the number of per-context derived metrics,
// pmSetDerivedControl's PCP_DERIVED_CONTEXT_LIMIT; -1 means no limit. A
// new Layer starts with its registry's limit, as in libpcp.
func (c *Layer) SetLimit(n int) {
	c.mu.Lock()
	c.limit = n
	c.mu.Unlock()
}

// Rebind forgets every binding and all history, so that each definition
// is checked again against the context's metrics when next used. pmapi
// calls it when a context is re-established (pmReconnectContext), when
// metrics may have come or gone and defined() may change its answer.
func (c *Layer) Rebind() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, m := range c.metrics {
		m.bound, m.binding, m.expr, m.err = false, false, nil, nil
	}
}

// Base returns the context derived metrics are added to.
func (c *Layer) Base() Base { return c.src }

// refresh picks up global definitions registered since the last call.
func (c *Layer) refresh() {
	for _, d := range c.reg.snapshot(c.seen) {
		m := &metric{def: d, global: true}
		for _, o := range c.metrics {
			if !o.global && o.def.Name == d.Name {
				m.masked = true
			}
		}
		c.metrics = append(c.metrics, m)
		c.seen++
		c.index = nil
	}
}

func (c *Layer) byName(name string) *metric {
	for _, m := range c.metrics {
		if !m.masked && m.def.Name == name {
			return m
		}
	}
	return nil
}

func (c *Layer) byPMID(pmid pcp.PMID) *metric {
	if c.index == nil {
		c.index = make(map[pcp.PMID]*metric, len(c.metrics))
		for _, m := range c.metrics {
			if !m.masked {
				c.index[m.def.PMID] = m
			}
		}
	}
	return c.index[pmid]
}

// AddDerived adds a derived metric to this context only,
// pmAddDerivedMetric: it masks a global one of the same name and is
// checked against the context's metrics at once. An operand the context
// lacks leaves the metric defined but unusable, as in libpcp.
func (c *Layer) AddDerived(ctx context.Context, name, expr string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refresh()
	if c.limit >= 0 && c.local >= c.limit {
		return &AddError{Name: name, Msg: "Too many per-context derived metrics"}
	}
	for _, m := range c.metrics {
		if m.def.Name == name && !m.global {
			return &AddError{Name: name, Msg: "Duplicate per-context derived metric name"}
		}
	}
	tree, err := Parse(name, expr)
	if err != nil {
		var se *SyntaxError
		errors.As(err, &se)
		se.call = "Syntax Error: pmAddDerivedMetric"
		return se
	}
	// per-context PMIDs count down from the top of the dynamic domain,
	// with PCP's flag bit set
	n := uint32(c.local)
	cluster, item := uint32(maxCluster)-n/maxItem, uint32(maxItem)-n%maxItem
	if n/maxItem > maxCluster {
		return &AddError{Name: name, Msg: "per-context PMID space exhausted"}
	}
	pmid := pcp.NewPMID(DynamicDomain, cluster, item) | 1<<31
	for _, m := range c.metrics {
		if m.global && m.def.Name == name {
			m.masked = true
		}
	}
	m := &metric{def: &Def{Name: name, Expr: expr, PMID: pmid, Tree: tree}}
	c.metrics = append(c.metrics, m)
	c.local++
	c.index = nil
	c.bind(ctx, m)
	var sem *SemanticError
	if errors.As(m.err, &sem) {
		return &SyntaxError{Name: name, Expr: expr, Msg: sem.Msg, call: "Semantic Error: pmAddDerivedMetric"}
	}
	return nil
}

// AddError is a per-context definition refused before parsing.
type AddError struct {
	Name string
	Msg  string
}

func (e *AddError) Error() string {
	return fmt.Sprintf("Error: pmAddDerivedMetric(\"%s\", ...): returns %d\n%s", e.Name, pcp.ErrBadDerive.Code(), e.Msg)
}

func (e *AddError) Unwrap() error { return pcp.ErrBadDerive }

// ctxResolver resolves operand names for binding inside a context.
type ctxResolver struct {
	c   *Layer
	ctx context.Context
}

func (r ctxResolver) lookup(name string) (pcp.PMID, error) {
	pmids, err := r.c.src.LookupNames(r.ctx, []string{name})
	if err == nil && len(pmids) == 1 && pmids[0] != pcp.PMIDNull {
		return pmids[0], nil
	}
	if m := r.c.byName(name); m != nil {
		return m.def.PMID, nil
	}
	if err == nil {
		err = pcp.ErrName
	}
	return pcp.PMIDNull, err
}

func (r ctxResolver) desc(pmid pcp.PMID) (pcp.Desc, error) {
	if m := r.c.byPMID(pmid); m != nil && IsDerived(pmid) {
		return r.c.descOf(r.ctx, m)
	}
	descs, err := r.c.src.LookupDescs(r.ctx, []pcp.PMID{pmid})
	if err != nil {
		return pcp.Desc{}, err
	}
	if len(descs) != 1 || descs[0].PMID == pcp.PMIDNull {
		return pcp.Desc{}, pcp.ErrPMID
	}
	return descs[0], nil
}

// bind checks m against the context's metrics the first time it is
// needed, as libpcp's __dmbind does.
func (c *Layer) bind(ctx context.Context, m *metric) {
	if m.bound {
		return
	}
	if m.binding {
		// libpcp recurses until its stack overflows; refuse instead
		m.err = fmt.Errorf("derived metric %s is defined in terms of itself: %w", m.def.Name, pcp.ErrBadDerive)
		return
	}
	m.binding = true
	defer func() { m.binding, m.bound = false, true }()
	if !m.def.Anon {
		// a real metric of the same name wins
		if pmids, err := c.src.LookupNames(ctx, []string{m.def.Name}); err == nil && len(pmids) == 1 &&
			pmids[0] != pcp.PMIDNull && !IsDerived(pmids[0]) {
			m.err = fmt.Errorf("derived metric %s: name of metric %s: %w", m.def.Name, pmids[0], pcp.ErrBadDerive)
			return
		}
	}
	tree, err := m.def.tree()
	var b *bound
	if err == nil {
		b, err = bind(m.def.Name, tree, ctxResolver{c, ctx})
	}
	if err != nil {
		if m.err == nil {
			m.err = err
		}
		var sem *SemanticError
		if errors.As(err, &sem) && m.global {
			c.reg.warn("%s\n", sem.Error())
		}
		return
	}
	if m.err != nil { // a cycle found deeper down
		return
	}
	b.desc.PMID = m.def.PMID
	m.expr = b
}

func (c *Layer) descOf(ctx context.Context, m *metric) (pcp.Desc, error) {
	c.bind(ctx, m)
	if m.expr == nil {
		return pcp.Desc{}, pcp.ErrBadDerive
	}
	return m.expr.desc, nil
}

// usable reports whether a metric belongs in the namespace: anonymous
// metrics always, others unless binding them failed.
func (c *Layer) usable(ctx context.Context, m *metric, bindNow bool) bool {
	if m.masked {
		return false
	}
	if bindNow {
		c.bind(ctx, m)
	}
	return m.def.Anon || !m.bound || m.expr != nil
}

// LookupNames maps names to PMIDs: real metrics first, then derived ones.
func (c *Layer) LookupNames(ctx context.Context, names []string) ([]pcp.PMID, error) {
	pmids, err := c.src.LookupNames(ctx, names)
	if err != nil && !errors.Is(err, pcp.ErrName) {
		return pmids, err
	}
	if len(pmids) != len(names) {
		pmids = make([]pcp.PMID, len(names))
		for i := range pmids {
			pmids[i] = pcp.PMIDNull
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refresh()
	found := 0
	for i, name := range names {
		if pmids[i] == pcp.PMIDNull {
			if m := c.byName(name); m != nil {
				pmids[i] = m.def.PMID
			}
		}
		if pmids[i] != pcp.PMIDNull {
			found++
		}
	}
	if found == 0 && len(names) == 1 {
		return pmids, fmt.Errorf("derive: LookupNames %q: %w", names[0], pcp.ErrName)
	}
	return pmids, nil
}

// LookupDescs returns descriptors; a derived metric that cannot be bound
// in this context, like a PMID the source does not know, gets a Desc
// whose PMID is pcp.PMIDNull.
func (c *Layer) LookupDescs(ctx context.Context, pmids []pcp.PMID) ([]pcp.Desc, error) {
	out := make([]pcp.Desc, len(pmids))
	var real []pcp.PMID
	var where []int
	c.mu.Lock()
	c.refresh()
	for i, pmid := range pmids {
		if m := c.byPMID(pmid); m != nil && IsDerived(pmid) {
			d, err := c.descOf(ctx, m)
			if err != nil {
				d = pcp.Desc{PMID: pcp.PMIDNull}
			}
			out[i] = d
			continue
		}
		real = append(real, pmid)
		where = append(where, i)
	}
	c.mu.Unlock()
	if len(real) > 0 {
		descs, err := c.src.LookupDescs(ctx, real)
		if err != nil {
			return nil, err
		}
		for k, i := range where {
			out[i] = descs[k]
		}
	}
	return out, nil
}

// LookupDesc returns one descriptor, pmLookupDesc: a derived metric that
// cannot be bound is pcp.ErrBadDerive.
func (c *Layer) LookupDesc(ctx context.Context, pmid pcp.PMID) (pcp.Desc, error) {
	c.mu.Lock()
	c.refresh()
	m := c.byPMID(pmid)
	if m != nil && IsDerived(pmid) {
		d, err := c.descOf(ctx, m)
		c.mu.Unlock()
		if err != nil {
			return d, fmt.Errorf("derive: LookupDesc %s: %w", pmid, err)
		}
		return d, nil
	}
	c.mu.Unlock()
	descs, err := c.src.LookupDescs(ctx, []pcp.PMID{pmid})
	if err != nil {
		return pcp.Desc{}, err
	}
	if len(descs) != 1 || descs[0].PMID == pcp.PMIDNull {
		return pcp.Desc{}, fmt.Errorf("derive: LookupDesc %s: %w", pmid, pcp.ErrPMID)
	}
	return descs[0], nil
}

// BindError returns why a derived metric cannot be used in this
// context (a missing operand, a semantic error), or nil.
func (c *Layer) BindError(ctx context.Context, pmid pcp.PMID) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refresh()
	m := c.byPMID(pmid)
	if m == nil {
		return pcp.ErrPMID
	}
	c.bind(ctx, m)
	return m.err
}

// NameID returns the name of a PMID, derived or real.
func (c *Layer) NameID(ctx context.Context, pmid pcp.PMID) (string, error) {
	if IsDerived(pmid) {
		c.mu.Lock()
		c.refresh()
		m := c.byPMID(pmid)
		c.mu.Unlock()
		if m != nil {
			return m.def.Name, nil
		}
	}
	if ns, ok := c.src.(Namespace); ok {
		return ns.NameID(ctx, pmid)
	}
	return "", fmt.Errorf("derive: NameID %s: %w", pmid, pcp.ErrPMID)
}

// Traverse lists the metric names under name, real ones first, then the
// derived ones that can be used in this context.
func (c *Layer) Traverse(ctx context.Context, name string) ([]string, error) {
	var names []string
	var srcErr error
	if ns, ok := c.src.(Namespace); ok {
		names, srcErr = ns.Traverse(ctx, name)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refresh()
	n := 0
	for _, m := range c.metrics {
		if under(m.def.Name, name) && c.usable(ctx, m, true) {
			names = append(names, m.def.Name)
			n++
		}
	}
	if n == 0 && srcErr != nil {
		return nil, srcErr
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("derive: Traverse %q: %w", name, pcp.ErrName)
	}
	return names, nil
}

func under(full, prefix string) bool {
	return prefix == "" || full == prefix || strings.HasPrefix(full, prefix) && full[len(prefix)] == '.'
}

// ChildrenStatus lists the children of name, real ones first, then those
// only derived metrics add. A derived leaf has no children.
func (c *Layer) ChildrenStatus(ctx context.Context, name string) ([]pmns.Child, error) {
	var kids []pmns.Child
	var srcErr error
	if ns, ok := c.src.(Namespace); ok {
		kids, srcErr = ns.ChildrenStatus(ctx, name)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refresh()
	var extra []pmns.Child
	for _, m := range c.metrics {
		if !under(m.def.Name, name) || !c.usable(ctx, m, false) {
			continue
		}
		if m.def.Name == name {
			return nil, nil // a derived leaf has no children
		}
		rest := m.def.Name
		if name != "" {
			rest = m.def.Name[len(name)+1:]
		}
		first, _, more := strings.Cut(rest, ".")
		if !slices.ContainsFunc(extra, func(k pmns.Child) bool { return k.Name == first }) {
			extra = append(extra, pmns.Child{Name: first, Leaf: !more})
		}
	}
	if len(extra) == 0 {
		return kids, srcErr
	}
	for _, k := range extra {
		if !slices.ContainsFunc(kids, func(r pmns.Child) bool { return r.Name == k.Name }) {
			kids = append(kids, k)
		}
	}
	return kids, nil
}

// LookupText returns a derived metric's help text (oneline, or help
// when help is true); only global metrics loaded from configuration
// files have any.
func (c *Layer) LookupText(pmid pcp.PMID, help bool) (string, error) {
	return c.reg.HelpText(pmid, help)
}

// Fetch fetches pmids into r, computing derived metrics from their
// operands, which are fetched from the source once however many derived
// metrics use them. The values r holds stay valid until r is used again.
func (c *Layer) Fetch(ctx context.Context, pmids []pcp.PMID, r *pcp.Result) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refresh()
	f := &c.fetch
	f.reset()
	for _, p := range pmids {
		m := c.byPMID(p)
		if m == nil || !IsDerived(p) {
			f.addReal(p)
			continue
		}
		c.bind(ctx, m)
		if _, dup := f.results[p]; !dup {
			f.results[p] = 0
			f.derived = append(f.derived, m)
		}
		if m.expr != nil {
			f.bound = true
			operands(m.expr, f.addReal)
		}
	}
	if !f.bound {
		// as libpcp, a fetch whose derived metrics all failed to bind
		// goes to the source unchanged: it answers for their PMIDs
		// (no values from an archive, PM_ERR_NOAGENT from pmcd)
		return c.src.Fetch(ctx, pmids, r)
	}
	in := &c.scratch
	in.Reset()
	if len(f.want) == 0 {
		// only constants: the source is still asked, as libpcp asks it,
		// for the timestamp (and an archive's position moves on)
		f.want = append(f.want, pmids...)
	}
	if err := c.src.Fetch(ctx, f.want, in); err != nil {
		return err
	}
	for i := range in.Sets {
		f.sets[in.Sets[i].PMID] = &in.Sets[i]
	}
	e := evaluator{ctx: ctx, stamp: in.Timestamp, sets: f.sets, inst: c.src}
	for _, m := range f.derived {
		if m.expr == nil {
			f.results[m.def.PMID] = pcp.ErrPMID.Code()
			continue
		}
		f.results[m.def.PMID] = e.eval(m.expr)
	}
	// one block of storage, from r's arena, for every value block
	size := 0
	for _, p := range pmids {
		if n, ok := f.results[p]; ok {
			size += derivedSize(c.byPMID(p), n)
		} else if s := f.sets[p]; s != nil && s.NumVal > 0 && s.ValFmt != pcp.ValInSitu {
			for _, v := range s.Values[:s.NumVal] {
				size += len(v.Block.Data)
			}
		}
	}
	arena := r.Arena(size)[:0]
	r.Reset()
	r.Timestamp = in.Timestamp
	for _, p := range pmids {
		vs := nextSet(r)
		if n, ok := f.results[p]; ok {
			arena = derivedSet(vs, c.byPMID(p), p, n, arena)
		} else {
			arena = copySet(vs, f.sets[p], p, arena)
		}
	}
	return nil
}

// fetchState is Fetch's working storage, kept between fetches.
type fetchState struct {
	seen    map[pcp.PMID]bool
	want    []pcp.PMID
	derived []*metric
	sets    map[pcp.PMID]*pcp.ValueSet
	results map[pcp.PMID]int32
	// bound says a derived metric asked for has an expression
	// (libpcp's fetch_has_dm)
	bound bool
}

func (f *fetchState) reset() {
	if f.seen == nil {
		f.seen = map[pcp.PMID]bool{}
		f.sets = map[pcp.PMID]*pcp.ValueSet{}
		f.results = map[pcp.PMID]int32{}
	}
	clear(f.seen)
	clear(f.sets)
	clear(f.results)
	f.want = f.want[:0]
	f.derived = f.derived[:0]
	f.bound = false
}

func (f *fetchState) addReal(p pcp.PMID) {
	if !f.seen[p] {
		f.seen[p] = true
		f.want = append(f.want, p)
	}
}

// nextSet appends a value set to r, reusing the storage of one a
// previous fetch left there.
func nextSet(r *pcp.Result) *pcp.ValueSet {
	if len(r.Sets) < cap(r.Sets) {
		r.Sets = r.Sets[:len(r.Sets)+1]
	} else {
		r.Sets = append(r.Sets, pcp.ValueSet{})
	}
	vs := &r.Sets[len(r.Sets)-1]
	vals := vs.Values[:0]
	*vs = pcp.ValueSet{Values: vals}
	return vs
}

func growValues(vs *pcp.ValueSet, n int) {
	vs.Values = slices.Grow(vs.Values[:0], n)[:n]
}

// operands calls f for each metric an expression reads.
func operands(b *bound, f func(pcp.PMID)) {
	if b.op == OpDefined {
		return
	}
	if b.left != nil {
		operands(b.left, f)
	}
	if b.right != nil {
		operands(b.right, f)
	}
	if b.op == OpName && b.pmid != pcp.PMIDNull {
		f(b.pmid)
	}
}

func copySet(out *pcp.ValueSet, s *pcp.ValueSet, pmid pcp.PMID, arena []byte) []byte {
	if s == nil {
		out.PMID, out.NumVal = pmid, pcp.ErrPMID.Code()
		return arena
	}
	out.PMID, out.NumVal, out.ValFmt = s.PMID, s.NumVal, s.ValFmt
	if s.NumVal <= 0 {
		return arena
	}
	growValues(out, int(s.NumVal))
	for i, v := range s.Values[:s.NumVal] {
		o := &out.Values[i]
		*o = pcp.Value{Inst: v.Inst, LVal: v.LVal, Block: pcp.ValueBlock{Type: v.Block.Type}}
		if s.ValFmt != pcp.ValInSitu {
			at := len(arena)
			arena = append(arena, v.Block.Data...)
			o.Block.Data = arena[at:len(arena):len(arena)]
		}
	}
	if out.ValFmt == pcp.ValSPtr {
		out.ValFmt = pcp.ValDPtr
	}
	return arena
}

// blockSize is the bytes of one value of type t held in a block.
func blockSize(t pcp.Type) int {
	switch t {
	case pcp.Type32, pcp.TypeU32:
		return 0
	case pcp.TypeFloat:
		return 4
	}
	return 8
}

func derivedSize(m *metric, n int32) int {
	if n <= 0 || m.expr == nil {
		return 0
	}
	t := m.expr.desc.Type
	if numeric(t) {
		return int(n) * blockSize(t)
	}
	size := 0
	for i := range m.expr.vals[:n] {
		size += len(m.expr.vals[i].block())
	}
	return size
}

// derivedSet turns an expression's values into a value set.
func derivedSet(vs *pcp.ValueSet, m *metric, pmid pcp.PMID, n int32, arena []byte) []byte {
	vs.PMID, vs.NumVal = pmid, n
	if n <= 0 || m.expr == nil {
		if n > 0 {
			vs.NumVal = 0
		}
		return arena
	}
	t := m.expr.desc.Type
	if t == pcp.Type32 || t == pcp.TypeU32 {
		vs.ValFmt = pcp.ValInSitu
	} else {
		vs.ValFmt = pcp.ValDPtr
	}
	growValues(vs, int(n))
	for i, v := range m.expr.vals[:n] {
		out := &vs.Values[i]
		*out = pcp.Value{Inst: v.inst}
		at := len(arena)
		switch t {
		case pcp.Type32, pcp.TypeU32:
			out.LVal = i32(v.bits)
			continue
		case pcp.TypeFloat:
			arena = binary.NativeEndian.AppendUint32(arena, uint32(v.bits))
		case pcp.Type64, pcp.TypeU64, pcp.TypeDouble:
			arena = binary.NativeEndian.AppendUint64(arena, v.bits)
		default:
			arena = append(arena, v.block()...)
		}
		out.Block = pcp.ValueBlock{Type: t, Data: arena[at:len(arena):len(arena)]}
	}
	return arena
}
