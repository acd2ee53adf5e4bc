package local

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/gopcp/gopcp/agents/all/entries"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmapi"
	"github.com/gopcp/gopcp/pmapi/internal/profile"
	"github.com/gopcp/gopcp/pmapi/local/agentserver"
	"github.com/gopcp/gopcp/pmda"
	"github.com/gopcp/gopcp/pmns"
	"github.com/gopcp/gopcp/pmns/dynamic"
)

// localClient is the client number agents of a local context see: the
// context is their only client.
const localClient pmda.Client = 0

// contextSlot is the context number in the PROFILE PDUs the agents are
// given, as for a host context's first context.
const contextSlot = 0

// Context is PCP's PM_CONTEXT_LOCAL: agents running in this process,
// called directly with no pmcd (or, for those the program does not
// link, each in a Companion process), and names from the local
// namespace. The agents are the pmda registry's constructors named by
// the entry points of a Table. Like pmapi's contexts it is safe for concurrent use;
// calls are served one after the other.
type Context struct {
	ns    *pmns.Tree
	table *Table // for Dup
	warn  io.Writer
	tz    string // $TZ as the caller read it, for TimeZone

	companion func() (string, error) // for Dup

	mu       sync.Mutex
	closed   bool
	agents   map[uint32]agent
	paths    map[uint32]string // each agent's shared object path, as the table has it
	profile  profile.Profile
	fetchReq pdu.Fetch // an agent's part of a fetch, under mu
}

var _ pmapi.Source = (*Context)(nil)

// Option configures NewContext.
type Option func(*options)

type options struct {
	ns    *pmns.Tree
	table *Table
	warn  io.Writer
	tz    string

	pmnsDefault string
	companion   func() (string, error)
}

// WithTable gives NewContext the agent table to run, as -K
// specifications have changed it; without it the table is read from
// pmcd.conf.
func WithTable(t *Table) Option {
	return func(o *options) { o.table = t }
}

// WithNamespace makes the context answer name questions from t instead
// of the local namespace, as PCP's tools do with -n.
func WithNamespace(t *pmns.Tree) Option {
	return func(o *options) { o.ns = t }
}

// WithWarnings sends the warnings of NewContext (agents that cannot be
// started) to w, in the words libpcp prints on stderr; without it they
// are dropped, since a library does not write to its program's stderr
// (PCP's tools pass os.Stderr). Domains tells which agents did start.
// Agents run in a companion (see WithCompanion) write their own log
// lines to w too, from another goroutine, until Close: a w that is not a
// file is written one write at a time, and is safe to read after Close.
func WithWarnings(w io.Writer) Option {
	return func(o *options) { o.warn = w }
}

// WithTZ gives the context $TZ's value as the caller read it, for its
// TimeZone (pmapi.LocalZone); without it TimeZone names the zone of
// /etc/localtime, as with TZ unset.
func WithTZ(tz string) Option {
	return func(o *options) { o.tz = tz }
}

// WithPMNSDefault gives the context $PMNS_DEFAULT's value as the caller
// read it: the namespace file loaded when WithNamespace gives none
// (pmns.DefaultPath).
func WithPMNSDefault(path string) Option {
	return func(o *options) { o.pmnsDefault = path }
}

// WithCompanion tells the context where Companion is, for the agents of
// package agents/all that the program does not link: find gives its
// path, or an error saying why there is none, which the warning for the
// agent then gives. It is called only when such an agent is in the
// table. Without it those agents are left out with that warning.
func WithCompanion(find func() (string, error)) Option {
	return func(o *options) { o.companion = find }
}

// NewContext starts the agents of the table (WithTable, else
// pmcd.conf's "dso" lines) in-process, as pmNewContext(PM_CONTEXT_LOCAL)
// does, with libpcp's warnings; an agent of package agents/all that this
// program does not link is started in a Companion process
// (WithCompanion), and one that cannot be is skipped with the warning
// for an agent that failed to start, saying why. An entry whose agent
// fails to start is skipped with libpcp's warning for a failed
// initialization routine. An entry whose entry point neither the pmda
// registry nor agents/all knows names one of PCP's C shared objects, which this package cannot load: it is skipped,
// with libpcp's warning where libpcp would not load it either (no such
// file, a file that is not a shared object of this machine, no such
// entry point in it) and silently where libpcp would have run it. A Go
// agent stands in for its shared object whether or not the file is
// there. Names come from WithNamespace's tree, else the
// local namespace (pmns.LoadDefault, with WithPMNSDefault's path).
func NewContext(ctx context.Context, opts ...Option) (*Context, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	switch o.warn.(type) {
	case nil:
		o.warn = io.Discard
	case *os.File:
		// A companion writes to the file itself.
	default:
		// A companion's standard error is copied into it from
		// os/exec's goroutine while the context writes its own
		// warnings: one writer at a time, and without ReadFrom, which
		// a bytes.Buffer would run on that goroutine before any byte
		// came.
		if o.warn != io.Discard {
			o.warn = &lockedWriter{w: o.warn}
		}
	}
	table := o.table
	if table == nil {
		table = NewTable()
	}
	list, err := table.List()
	if err != nil {
		return nil, fmt.Errorf("pmapi: local context: %w", err)
	}
	// The companion starts first: its start-up and its agents'
	// overlap the namespace's loading and the in-process agents.
	apart := launchApart(list, &o)
	ns := o.ns
	if ns == nil {
		if ns, err = pmns.LoadDefault(o.pmnsDefault); err != nil {
			apart.abandon()
			return nil, fmt.Errorf("pmapi: local context: %w", err)
		}
	}
	c := &Context{ns: ns, table: table, warn: o.warn, tz: o.tz, companion: o.companion, agents: make(map[uint32]agent), paths: make(map[uint32]string)}
	c.profile.Reset(pdu.ProfileInclude)
	started, err := startAgents(ctx, list, apart)
	if err != nil {
		return nil, err
	}
	for i, la := range list {
		switch s := started[i]; {
		case s.failed != "":
			fmt.Fprintf(o.warn, "__pmConnectLocal: Warning: initialization routine \"%s\" failed in DSO \"%s\": %s\n", la.Entry, la.Path, s.failed)
		case s.a == nil:
			foreignDSO(o.warn, la, pmdasDir())
		case c.agents[uint32(la.Domain)] != nil:
			// The first of a domain serves it; this one ends here.
			_ = s.a.Close()
		default:
			c.agents[uint32(la.Domain)] = s.a
			c.paths[uint32(la.Domain)] = la.Path
		}
	}
	return c, nil
}

// Kind is pmapi.KindLocal.
func (c *Context) Kind() pmapi.Kind { return pmapi.KindLocal }

// Domains lists the domains of the agents the context runs, in order.
func (c *Context) Domains() []uint32 {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]uint32, 0, len(c.agents))
	for d := range c.agents {
		out = append(out, d)
	}
	slices.Sort(out)
	return out
}

// startedAgent is an entry's agent, or the text of its failure to
// start; neither is an entry no Go agent answers (one of PCP's C shared
// objects).
type startedAgent struct {
	a      agent
	failed string
}

// apartAgents is the entries of a table that run in a Companion
// process (those of agents/all this program does not link) and that
// companion, started, or why it could not be.
type apartAgents struct {
	idx []int   // the entries' places in the table
	es  []Entry // the entries
	c   *companion
	err error
}

// launchApart starts the Companion for the entries of list that need
// one, if any, without waiting for it.
func launchApart(list []Entry, o *options) *apartAgents {
	p := &apartAgents{}
	for i, e := range list {
		if _, ok := pmda.Lookup(e.Entry); !ok && entries.Has(e.Entry) {
			p.idx = append(p.idx, i)
			p.es = append(p.es, e)
		}
	}
	if len(p.es) > 0 {
		p.c, p.err = launchCompanion(p.es, o)
	}
	return p
}

// abandon ends a companion whose context was not made.
func (p *apartAgents) abandon() {
	if p.c != nil {
		p.c.stop()
	}
}

// startAgents starts the agents of the entries: the registry's
// in-process, in order, then reads which of those in the companion
// started. Only ctx's end fails it, every agent started then closed
// again.
func startAgents(ctx context.Context, list []Entry, apart *apartAgents) ([]startedAgent, error) {
	out := make([]startedAgent, len(list))
	closeAll := func() {
		for _, s := range out {
			if s.a != nil {
				_ = s.a.Close()
			}
		}
	}
	for i, e := range list {
		if err := ctx.Err(); err != nil {
			closeAll()
			apart.abandon()
			return nil, err
		}
		if newAgent, ok := pmda.Lookup(e.Entry); ok {
			if a, err := newAgent(uint32(e.Domain)); err != nil {
				out[i].failed = agentserver.InitErrText(err)
			} else {
				out[i].a = a
			}
		}
	}
	if len(apart.idx) == 0 {
		return out, nil
	}
	var agents []*pipeAgent
	var failed []string
	err := apart.err
	if err == nil {
		agents, failed, err = apart.c.handshake(ctx, apart.es)
	}
	if err != nil && ctx.Err() != nil {
		closeAll()
		return nil, ctx.Err()
	}
	for j, i := range apart.idx {
		switch {
		case err != nil:
			out[i].failed = pcp.ErrNoAgent.Error() + ": " + err.Error()
		case agents[j] != nil:
			out[i].a = agents[j]
		default:
			out[i].failed = failed[j]
		}
	}
	return out, nil
}

// agent returns the agent of a domain; the caller holds mu.
func (c *Context) agent(domain uint32) (agent, error) {
	if c.closed {
		return nil, pcp.ErrNoContext
	}
	a := c.agents[domain]
	if a == nil {
		return nil, pcp.ErrNoAgent
	}
	return a, nil
}

// call hands req to the agent of a domain under the lock and returns its
// answer. The agent's Handle turns a panic in the agent into pcp.ErrIPC,
// as for pmcd's in-process agents.
func (c *Context) call(ctx context.Context, domain uint32, req pdu.Message) (pdu.Message, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	a, err := c.agent(domain)
	if err != nil {
		return nil, err
	}
	if l, ok := req.(*pdu.LabelReq); ok && uint8(l.Type) == pcp.LabelInstances {
		// instance labels follow the profile, as pmcd's do
		a.Profile(c.profile.Message(contextSlot))
	}
	return a.Handle(ctx, localClient, req)
}

// Close ends the context, telling each agent its client has gone and
// then ending the agent (pmda.Agent.Close), which releases what it holds:
// an in-process trace agent's port and goroutines, the MMV agent's
// mappings. What the agents could not release is returned.
func (c *Context) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil
	}
	c.closed = true
	var errs []error
	for _, d := range slices.Sorted(maps.Keys(c.agents)) {
		a := c.agents[d]
		_, _ = a.Handle(context.Background(), localClient, &pdu.Error{Code: int32(pcp.ErrNotConn)})
		if err := a.Close(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// HostName is this machine's name, as pmGetContextHostName answers for a
// local context.
func (c *Context) HostName(context.Context) (string, error) {
	name, err := os.Hostname()
	if err != nil {
		return "localhost", fmt.Errorf("pmapi: HostName: %w", err)
	}
	return name, nil
}

// askNames hands a namespace question to the agent of a domain, which
// answers for its dynamic subtrees (pcp.ErrNoAgent without one).
func (c *Context) askNames(ctx context.Context, domain uint32, req pdu.Message) (pdu.Message, error) {
	return c.call(ctx, domain, req)
}

// LookupName returns the PMID of a name in the local namespace, asking
// the owning agent for a name in a dynamic subtree.
func (c *Context) LookupName(ctx context.Context, name string) (pcp.PMID, error) {
	ids, _, err := dynamic.LookupNames(ctx, c.ns, c.askNames, []string{name})
	if err != nil {
		return pcp.PMIDNull, fmt.Errorf("pmapi: LookupName %q: %w", name, err)
	}
	return ids[0], nil
}

// LookupNames is pmLookupName on the local namespace (and the agents'
// dynamic subtrees): names not found get pcp.PMIDNull, and only a single
// name fails the call.
func (c *Context) LookupNames(ctx context.Context, names []string) ([]pcp.PMID, error) {
	if len(names) == 0 {
		return nil, fmt.Errorf("pmapi: LookupNames: %w", pcp.ErrTooSmall)
	}
	ids, _, err := dynamic.LookupNames(ctx, c.ns, c.askNames, names)
	if err != nil {
		return ids, fmt.Errorf("pmapi: LookupNames: %w", err)
	}
	return ids, nil
}

// NameID returns a name of a PMID from the local namespace, else from
// its agent.
func (c *Context) NameID(ctx context.Context, pmid pcp.PMID) (string, error) {
	name, err := c.ns.NameID(pmid)
	if err == nil {
		return name, nil
	}
	names, aerr := dynamic.NameAll(ctx, c.ns, c.askNames, pmid)
	if aerr != nil || len(names) == 0 {
		return "", fmt.Errorf("pmapi: NameID %s: %w", pmid, err)
	}
	return names[0], nil
}

// NameAll returns every name of a PMID in the local namespace, else its
// agent's.
func (c *Context) NameAll(ctx context.Context, pmid pcp.PMID) ([]string, error) {
	names, err := dynamic.NameAll(ctx, c.ns, c.askNames, pmid)
	if err != nil {
		return nil, fmt.Errorf("pmapi: NameAll %s: %w", pmid, err)
	}
	return names, nil
}

// Children returns the names below a node of the local namespace.
func (c *Context) Children(ctx context.Context, name string) ([]string, error) {
	m, err := dynamic.Children(ctx, c.ns, c.askNames, name, pdu.PMNSChildNames)
	if err != nil {
		return nil, fmt.Errorf("pmapi: Children %q: %w", name, err)
	}
	return m.Names, nil
}

// ChildrenStatus is Children with whether each child is a metric.
func (c *Context) ChildrenStatus(ctx context.Context, name string) ([]pmns.Child, error) {
	m, err := dynamic.Children(ctx, c.ns, c.askNames, name, pdu.PMNSChildStatus)
	if err != nil {
		return nil, fmt.Errorf("pmapi: ChildrenStatus %q: %w", name, err)
	}
	kids := make([]pmns.Child, len(m.Names))
	for i, n := range m.Names {
		kids[i] = pmns.Child{Name: n, Leaf: i >= len(m.Status) || m.Status[i] != pdu.PMNSNonLeafStatus}
	}
	return kids, nil
}

// Traverse returns the metric names at or below a node of the local
// namespace, the agents' dynamic subtrees included.
func (c *Context) Traverse(ctx context.Context, name string) ([]string, error) {
	names, err := dynamic.Traverse(ctx, c.ns, c.askNames, name)
	if err != nil {
		return nil, fmt.Errorf("pmapi: Traverse %q: %w", name, err)
	}
	return names, nil
}

// LookupDesc asks the metric's agent for its descriptor; a domain
// without an agent is pcp.ErrNoAgent.
func (c *Context) LookupDesc(ctx context.Context, pmid pcp.PMID) (pcp.Desc, error) {
	m, err := c.call(ctx, pmid.Domain(), &pdu.DescReq{PMID: pmid})
	if err != nil {
		return pcp.Desc{}, fmt.Errorf("pmapi: LookupDesc %s: %w", pmid, err)
	}
	return m.(*pdu.Desc).Desc, nil
}

// LookupDescs is LookupDesc for several metrics: a metric that fails
// gets a descriptor whose PMID is pcp.PMIDNull.
func (c *Context) LookupDescs(ctx context.Context, pmids []pcp.PMID) ([]pcp.Desc, error) {
	return pmapi.LookupDescsEach(ctx, pmids, c.LookupDesc)
}

func (c *Context) instance(ctx context.Context, indom pcp.InDom, inst int32, name string) (*pdu.Instance, error) {
	if indom == pcp.InDomNull {
		return nil, pcp.ErrInDom
	}
	m, err := c.call(ctx, indom.Domain(), &pdu.InstanceReq{InDom: indom, Inst: inst, Name: name})
	if err != nil {
		return nil, err
	}
	return m.(*pdu.Instance), nil
}

// GetInDom returns the instances of an instance domain from its agent.
func (c *Context) GetInDom(ctx context.Context, indom pcp.InDom) ([]pmapi.Instance, error) {
	reply, err := c.instance(ctx, indom, pcp.InstNull, "")
	if err != nil {
		return nil, fmt.Errorf("pmapi: GetInDom %s: %w", indom, err)
	}
	insts := make([]pmapi.Instance, len(reply.Entries))
	for i, e := range reply.Entries {
		insts[i] = pmapi.Instance{Inst: e.Inst, Name: e.Name}
	}
	return insts, nil
}

// LookupInDom returns the number of a named instance.
func (c *Context) LookupInDom(ctx context.Context, indom pcp.InDom, name string) (int32, error) {
	reply, err := c.instance(ctx, indom, pcp.InstNull, name)
	if err == nil && len(reply.Entries) == 0 {
		err = pcp.ErrInst
	}
	if err != nil {
		return pcp.InstNull, fmt.Errorf("pmapi: LookupInDom %s %q: %w", indom, name, err)
	}
	return reply.Entries[0].Inst, nil
}

// NameInDom returns the name of an instance.
func (c *Context) NameInDom(ctx context.Context, indom pcp.InDom, inst int32) (string, error) {
	reply, err := c.instance(ctx, indom, inst, "")
	if err == nil && len(reply.Entries) == 0 {
		err = pcp.ErrInst
	}
	if err != nil {
		return "", fmt.Errorf("pmapi: NameInDom %s %d: %w", indom, inst, err)
	}
	return reply.Entries[0].Name, nil
}

func (c *Context) text(ctx context.Context, domain, ident uint32, typ int32) (string, error) {
	for {
		var text string
		m, err := c.call(ctx, domain, &pdu.TextReq{Ident: ident, Type: typ})
		if err == nil {
			text = m.(*pdu.Text).Text
		}
		if err == nil && text != "" {
			return text, nil
		}
		if typ&pdu.TextHelp == 0 || typ&pdu.TextDirect != 0 {
			return text, err
		}
		typ = typ&^pdu.TextHelp | pdu.TextOneLine
	}
}

// LookupText returns a metric's help text from its agent, the one-line
// text standing in for missing full text as with a host context.
func (c *Context) LookupText(ctx context.Context, pmid pcp.PMID, level pmapi.TextLevel) (string, error) {
	text, err := c.text(ctx, pmid.Domain(), uint32(pmid), int32(level)|pdu.TextPMID)
	if err != nil {
		return "", fmt.Errorf("pmapi: LookupText %s: %w", pmid, err)
	}
	return text, nil
}

// LookupInDomText returns an instance domain's help text.
func (c *Context) LookupInDomText(ctx context.Context, indom pcp.InDom, level pmapi.TextLevel) (string, error) {
	text, err := c.text(ctx, indom.Domain(), uint32(indom), int32(level)|pdu.TextInDom)
	if err != nil {
		return "", fmt.Errorf("pmapi: LookupInDomText %s: %w", indom, err)
	}
	return text, nil
}

// ContextLabels returns the labels a local context has, as libpcp makes
// them: the host's (see HostLabels) and the user and group of this
// process, which are optional.
func (c *Context) ContextLabels(context.Context) ([]pcp.LabelSet, error) {
	set, err := contextLabels()
	if err != nil {
		return nil, fmt.Errorf("pmapi: ContextLabels: %w", err)
	}
	return []pcp.LabelSet{set}, nil
}

func (c *Context) labels(ctx context.Context, call string, domain, ident uint32, level uint8) ([]pcp.LabelSet, error) {
	if sets, ok, err := c.loaderLabels(domain, level); ok {
		if err != nil {
			return nil, fmt.Errorf("pmapi: %s: %w", call, err)
		}
		return sets, nil
	}
	m, err := c.call(ctx, domain, &pdu.LabelReq{Ident: ident, Type: int32(level)})
	if err != nil {
		return nil, fmt.Errorf("pmapi: %s: %w", call, err)
	}
	sets := m.(*pdu.Label).Sets
	if level == pcp.LabelDomain && len(sets) == 0 {
		// Only an agent without a label callback has no domain
		// labels (pmda.Agent.Label): one in the companion, whose
		// interface the context does not know, is named here.
		return c.loaderDomainLabels(call, domain)
	}
	return sets, nil
}

// DomainLabels returns an agent's labels.
func (c *Context) DomainLabels(ctx context.Context, domain uint32) ([]pcp.LabelSet, error) {
	return c.labels(ctx, "DomainLabels", domain, domain, pcp.LabelDomain)
}

// InDomLabels returns an instance domain's labels.
func (c *Context) InDomLabels(ctx context.Context, indom pcp.InDom) ([]pcp.LabelSet, error) {
	return c.labels(ctx, "InDomLabels", indom.Domain(), uint32(indom), pcp.LabelInDom)
}

// ClusterLabels returns the labels of a metric's cluster.
func (c *Context) ClusterLabels(ctx context.Context, pmid pcp.PMID) ([]pcp.LabelSet, error) {
	return c.labels(ctx, "ClusterLabels", pmid.Domain(), uint32(pmid), pcp.LabelCluster)
}

// ItemLabels returns a metric's labels.
func (c *Context) ItemLabels(ctx context.Context, pmid pcp.PMID) ([]pcp.LabelSet, error) {
	return c.labels(ctx, "ItemLabels", pmid.Domain(), uint32(pmid), pcp.LabelItem)
}

// InstancesLabels returns one label set per instance the profile selects.
func (c *Context) InstancesLabels(ctx context.Context, indom pcp.InDom) ([]pcp.LabelSet, error) {
	return c.labels(ctx, "InstancesLabels", indom.Domain(), uint32(indom), pcp.LabelInstances)
}

// AddProfile is pmAddProfile for the local context; see pmapi.HostContext.AddProfile.
func (c *Context) AddProfile(indom pcp.InDom, insts []int32) error {
	return c.changeProfile("AddProfile", indom, insts, true)
}

// DelProfile is pmDelProfile for the local context; see pmapi.HostContext.DelProfile.
func (c *Context) DelProfile(indom pcp.InDom, insts []int32) error {
	return c.changeProfile("DelProfile", indom, insts, false)
}

func (c *Context) changeProfile(name string, indom pcp.InDom, insts []int32, add bool) error {
	if indom == pcp.InDomNull && len(insts) > 0 {
		return fmt.Errorf("pmapi: %s: instances with PM_INDOM_NULL: %w", name, pcp.ErrProfileSpec)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return fmt.Errorf("pmapi: %s: %w", name, pcp.ErrNoContext)
	}
	c.profile.Change(indom, insts, add)
	return nil
}

// Fetch gets values from the agents, as pmFetch does for a local
// context: each agent is given the profile and asked for its metrics;
// metrics of a domain without an agent get pcp.ErrNoAgent in their value
// set. The timestamp is the time of the fetch. r's storage is reused;
// nothing in it aliases the agents' buffers.
func (c *Context) Fetch(ctx context.Context, pmids []pcp.PMID, r *pcp.Result) (pmapi.StateChange, error) {
	if len(pmids) == 0 {
		return 0, fmt.Errorf("pmapi: Fetch: %w", pcp.ErrTooSmall)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return 0, fmt.Errorf("pmapi: Fetch: %w", pcp.ErrNoContext)
	}
	r.Reset()
	r.Sets = slices.Grow(r.Sets, len(pmids))[:len(pmids)]
	for i, id := range pmids {
		r.Sets[i] = pcp.ValueSet{PMID: id, Values: r.Sets[i].Values[:0]}
	}
	// one request per agent, its PMIDs in request order
	var asked []uint32
	for _, id := range pmids {
		if !slices.Contains(asked, id.Domain()) {
			asked = append(asked, id.Domain())
		}
	}
	for _, dom := range asked {
		var ids []pcp.PMID
		var idx []int
		for i, id := range pmids {
			if id.Domain() == dom {
				ids = append(ids, id)
				idx = append(idx, i)
			}
		}
		a := c.agents[dom]
		if a == nil {
			for _, i := range idx {
				r.Sets[i].NumVal = int32(pcp.ErrNoAgent)
			}
			continue
		}
		res, err := c.fetchAgent(ctx, a, ids)
		if err != nil {
			code := pcp.ErrGeneric
			if pe, ok := asPCPError(err); ok {
				code = pe
			}
			if ctx.Err() != nil {
				return 0, fmt.Errorf("pmapi: Fetch: %w", ctx.Err())
			}
			for _, i := range idx {
				r.Sets[i].NumVal = int32(code)
			}
			continue
		}
		// the agent reuses its result at its next fetch: copy it now
		copySets(r, res, idx)
	}
	r.Timestamp = pcp.TimestampOf(time.Now())
	return 0, nil
}

// fetchAgent gives an agent the profile and asks it for ids; c.mu is
// held. The answer is the agent's until its next fetch.
func (c *Context) fetchAgent(ctx context.Context, a agent, ids []pcp.PMID) (*pcp.Result, error) {
	a.Profile(c.profile.Message(contextSlot))
	c.fetchReq = pdu.Fetch{Context: contextSlot, PMIDs: ids}
	m, err := a.Handle(ctx, localClient, &c.fetchReq)
	if err != nil {
		return nil, err
	}
	return &m.(*pdu.Result).Result, nil
}

// copySets copies an agent's value sets into r at the request positions
// idx, value blocks included.
func copySets(r *pcp.Result, res *pcp.Result, idx []int) {
	for j, s := range res.Sets {
		if j >= len(idx) {
			break
		}
		out := &r.Sets[idx[j]]
		out.PMID, out.NumVal, out.ValFmt = s.PMID, s.NumVal, s.ValFmt
		for _, v := range s.Values {
			if len(v.Block.Data) > 0 {
				v.Block.Data = slices.Clone(v.Block.Data)
			}
			out.Values = append(out.Values, v)
		}
		if out.ValFmt == pcp.ValSPtr {
			out.ValFmt = pcp.ValDPtr
		}
	}
}

// Store hands each agent its part of r, as pmStore does for a local
// context; the first failure is returned.
func (c *Context) Store(ctx context.Context, r *pcp.Result) error {
	if r == nil || len(r.Sets) == 0 {
		return fmt.Errorf("pmapi: Store: %w", pcp.ErrTooSmall)
	}
	for _, s := range r.Sets {
		if s.NumVal <= 0 || len(s.Values) == 0 {
			return fmt.Errorf("pmapi: Store %s: %w", s.PMID, pcp.ErrValue)
		}
	}
	var first error
	var doms []uint32
	for _, s := range r.Sets {
		if !slices.Contains(doms, s.PMID.Domain()) {
			doms = append(doms, s.PMID.Domain())
		}
	}
	for _, dom := range doms {
		part := &pdu.Result{Result: pcp.Result{Timestamp: r.Timestamp}}
		for _, s := range r.Sets {
			if s.PMID.Domain() == dom {
				part.Sets = append(part.Sets, s)
			}
		}
		_, err := c.call(ctx, dom, part)
		if err != nil && first == nil {
			first = err
		}
	}
	if first != nil {
		return fmt.Errorf("pmapi: Store: %w", first)
	}
	return nil
}

func asPCPError(err error) (pcp.Error, bool) {
	var pe pcp.Error
	ok := errors.As(err, &pe)
	return pe, ok
}
