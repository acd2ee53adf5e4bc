package derive

import (
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/gopcp/gopcp/pcp"
)

// DynamicDomain is the domain of derived metrics' PMIDs, libpcp's
// DYNAMIC_PMID.
const DynamicDomain = 511

// Def is one derived metric definition.
type Def struct {
	Name string
	Expr string
	PMID pcp.PMID
	// Tree is the parsed expression; nil for a global definition, which
	// is parsed when a context binds it (tree).
	Tree *Node
	// Anon marks libpcp's anonymous metrics (event.flags, event.missed),
	// which have descriptors but never values.
	Anon bool
	// Oneline and Help are the help texts set in configuration files
	// with name(oneline) and name(helptext).
	Oneline, Help string
}

// tree is d's parsed expression: Tree, or Expr parsed again (a global
// definition, parsed once when registered and then dropped).
func (d *Def) tree() (*Node, error) {
	if d.Tree != nil {
		return d.Tree, nil
	}
	return Parse(d.Name, d.Expr)
}

// libpcp keeps the top bit of the cluster field for itself, so derived
// PMIDs use clusters 0 to 2047 and items 1 to 1023.
const (
	maxCluster = 2047
	maxItem    = 1023
)

// IsDerived reports whether pmid belongs to a derived metric: domain 511
// with a non-zero item (item 0 is the root of a dynamic subtree) and a
// cluster below 2048, as libpcp's IS_DERIVED says. An archive can hold
// metrics of domain 511 with cluster 2048 and up (pmlogger's rewritten
// PMIDs of metrics that were derived when logged): those are the
// archive's own, their help text and values asked of it.
func IsDerived(pmid pcp.PMID) bool {
	return pmid.Domain() == DynamicDomain && pmid.Cluster()&2048 == 0 && pmid.Item() != 0
}

// Registry holds the global derived metrics, pmRegisterDerived's table.
// Every Layer made from it sees its definitions, including those
// added after the Layer was made. A Registry is safe for concurrent
// use.
type Registry struct {
	mu    sync.Mutex
	defs  []*Def
	named map[string]*Def
	limit int // most global (non-anonymous) metrics allowed; -1 for no limit
	nanon int
	// Warn receives the messages libpcp prints while loading
	// configuration files and binding definitions; nil discards them.
	Warn func(msg string)
	// parser parses the anonymous metrics (under mu), so that their
	// trees share its node slab.
	parser parser
	// check parses each registered definition (under mu) to refuse a
	// bad one, as libpcp does at registration; its tree is dropped and
	// its slab reused, and the tree is parsed again when a context
	// first binds the metric (Def.tree). PCP's defaults are 646 nodes,
	// 52 kB of fresh pages at every tool's start, most never bound.
	check parser
}

// NewRegistry returns a registry holding only the anonymous metrics
// event.flags and event.missed, as libpcp's table starts.
func NewRegistry() *Registry {
	r := &Registry{named: map[string]*Def{}, limit: -1}
	r.registerAnon("event.flags", pcp.TypeU32, "Flags of an event record",
		"The flags of each record unpacked from an event metric's value; see pmUnpackEventRecords(3).")
	r.registerAnon("event.missed", pcp.TypeU32, "Count of event records missed",
		"How many event records were lost because the agent or the client\n"+
			"could not keep up; see pmUnpackEventRecords(3).")
	return r
}

func (r *Registry) registerAnon(name string, t pcp.Type, oneline, help string) {
	expr := "anon(PM_TYPE_" + typeWord(t) + ")"
	tree, err := r.parser.run(name, expr)
	if err != nil {
		panic("derive: anonymous metric: " + err.Error())
	}
	d := r.add(name, expr, tree)
	d.Anon, d.Oneline, d.Help = true, oneline, help
	r.nanon++
}

func (r *Registry) warn(format string, args ...any) {
	if r.Warn != nil {
		r.Warn(fmt.Sprintf(format, args...))
	}
}

var (
	globalOnce sync.Once
	global     *Registry
)

// Global returns the process's registry, libpcp's process-wide state of
// pmRegisterDerived, made on first use as libpcp makes it: the anonymous
// metrics, then LoadDefaults with the process's PCP_DERIVED_CONFIG.
// Messages about bad definitions go to standard error, as libpcp's do.
//
// Global is the one place outside internal/pcpconf where a library reads
// the environment (docs/architecture.md): a program using libpcp's
// global registry (fetchgroup.Create, derived.Wrap with a nil registry)
// gets PCP_DERIVED_CONFIG's definitions as from libpcp. PCP's tools here
// do not use it: each run has a registry of its own whose defaults
// internal/cli reads (NewRegistry, LoadDefaults).
func Global() *Registry {
	globalOnce.Do(func() {
		global = NewRegistry()
		global.Warn = func(msg string) { fmt.Fprint(os.Stderr, msg) }
		global.LoadDefaults(os.LookupEnv("PCP_DERIVED_CONFIG"))
	})
	return global
}

// refuse is how registration turns a definition down before parsing,
// with libpcp's text and no position.
func (r *Registry) refuse(name, expr, msg string) error {
	return &SyntaxError{Name: name, Expr: expr, Pos: 0, Msg: msg}
}

// Register adds a global derived metric, pmRegisterDerivedMetric: the
// expression is parsed now and checked against each context's metrics
// when the context first needs it. The error is a *SyntaxError whose
// text is libpcp's message.
func (r *Registry) Register(name, expr string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.register(name, expr)
}

func (r *Registry) register(name, expr string) error {
	if r.limit >= 0 && len(r.defs)-r.nanon >= r.limit {
		return r.refuse(name, expr, "Too many global derived metrics")
	}
	if _, dup := r.named[name]; dup {
		return r.refuse(name, expr, "Duplicate global derived metric name")
	}
	if err := r.check.check(name, expr); err != nil {
		return err
	}
	if r.nextPMID() == pcp.PMIDNull {
		return r.refuse(name, expr, "global PMID space exhausted")
	}
	r.add(name, expr, nil)
	return nil
}

// nextPMID is the PMID the next global metric gets: they count up from
// 511.0.1, item 0 being reserved.
func (r *Registry) nextPMID() pcp.PMID {
	if len(r.defs) == 0 {
		return pcp.NewPMID(DynamicDomain, 0, 1)
	}
	last := r.defs[len(r.defs)-1].PMID
	switch {
	case last.Item() < maxItem:
		return pcp.NewPMID(DynamicDomain, last.Cluster(), last.Item()+1)
	case last.Cluster() < maxCluster:
		return pcp.NewPMID(DynamicDomain, last.Cluster()+1, 1)
	}
	return pcp.PMIDNull
}

func (r *Registry) add(name, expr string, tree *Node) *Def {
	d := &Def{Name: name, Expr: expr, PMID: r.nextPMID(), Tree: tree}
	r.defs = append(r.defs, d)
	r.named[name] = d
	return d
}

// SetLimit bounds the number of global derived metrics (anonymous ones
// not counted), pmSetDerivedControl's PCP_DERIVED_GLOBAL_LIMIT; -1 means
// no limit.
func (r *Registry) SetLimit(n int) {
	r.mu.Lock()
	r.limit = n
	r.mu.Unlock()
}

// Defs returns a copy of the definitions in registration order.
func (r *Registry) Defs() []Def {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Def, len(r.defs))
	for i, d := range r.defs {
		out[i] = *d
	}
	return out
}

// snapshot returns the definitions from index from on.
func (r *Registry) snapshot(from int) []*Def {
	r.mu.Lock()
	defer r.mu.Unlock()
	if from >= len(r.defs) {
		return nil
	}
	return append([]*Def(nil), r.defs[from:]...)
}

// HelpText returns a global metric's help text, pmLookupText for derived
// metrics: oneline or help (help falls back to the one-line text).
func (r *Registry) HelpText(pmid pcp.PMID, help bool) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, d := range r.defs {
		if d.PMID != pmid {
			continue
		}
		text := d.Oneline
		if help && d.Help != "" {
			text = d.Help
		}
		if text == "" {
			return "", pcp.ErrText
		}
		return text, nil
	}
	return "", pcp.ErrPMID
}

// attr errors, as libpcp distinguishes them
var (
	errAttrMetric = errors.New("no such metric")
	errAttrName   = errors.New("unknown attribute")
	errAttrDup    = errors.New("duplicate value")
)

func (r *Registry) setAttr(name, attr, value string) error {
	d, ok := r.named[name]
	if !ok {
		return errAttrMetric
	}
	var field *string
	switch attr {
	case "oneline":
		field = &d.Oneline
	case "helptext":
		field = &d.Help
	default:
		return errAttrName
	}
	if *field != "" {
		return errAttrDup
	}
	*field = value
	return nil
}

// checkName is the rule for derived metric names: dot-separated
// components, each a letter then letters, digits and underscores (libpcp
// lets a name end with a dot).
func checkName(name string) bool {
	first := true
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case first:
			if !isAlpha(c) {
				return false
			}
			first = false
		case c == '.':
			first = true
		case !isAlpha(c) && !isDigit(c) && c != '_':
			return false
		}
	}
	return true
}
