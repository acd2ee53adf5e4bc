// Package derived gives pmapi contexts derived metrics, as libpcp gives
// every context of a process: Wrap lays package derive's metrics (the
// process's registry, PCP_DERIVED_CONFIG or PCP's defaults, the
// anonymous event metrics, and per-context definitions) over any
// pmapi.Source, and RegisterDerived, LoadDerivedConfig and the rest are
// the PMAPI calls that define them.
package derived

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/gopcp/gopcp/derive"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
	"github.com/gopcp/gopcp/pmns"
)

// Source is a pmapi.Source with derived metrics (pmRegisterDerived(3))
// laid over another: the registry's global metrics, libpcp's anonymous event
// metrics among them, and the context's own (AddDerived). Their names
// are in the namespace (lookups, traversals, children), they have
// descriptors and fetched values, and help text where their definitions
// give it; everything else goes to the wrapped pmapi.Source. Binding, the
// semantic check of a definition against the context's metrics, happens
// when a metric is first used, and again after Reconnect, as in libpcp.
//
// A Source is safe for concurrent use when its pmapi.Source is.
type Source struct {
	pmapi.Source
	d *derive.Layer

	mu sync.Mutex // serialises fetches, so that sc is the fetch's own
	sc pmapi.StateChange
}

// Wrap returns src with the derived metrics of reg, or of the
// process's registry (derive.Global: PCP_DERIVED_CONFIG or PCP's default
// definitions, and whatever RegisterDerived and LoadDerivedConfig add)
// when reg is nil. A src that already has derived metrics is returned
// as it is.
func Wrap(src pmapi.Source, reg *derive.Registry) *Source {
	if d, ok := src.(*Source); ok {
		return d
	}
	w := &Source{Source: src}
	w.d = derive.NewLayer(deriveSource{w}, reg)
	return w
}

// Unwrap returns the Source the derived metrics are laid over.
func (w *Source) Unwrap() pmapi.Source { return w.Source }

// Underlying returns the context beneath any derived metrics layer, for
// callers that need the concrete kind (an *ArchiveContext's SetMode).
func Underlying(src pmapi.Source) pmapi.Source {
	for {
		d, ok := src.(*Source)
		if !ok {
			return src
		}
		src = d.Source
	}
}

// deriveSource is the wrapped Source as package derive's Base; Fetch
// keeps the state-change flags for Source.Fetch to return.
type deriveSource struct{ w *Source }

func (s deriveSource) LookupNames(ctx context.Context, names []string) ([]pcp.PMID, error) {
	return s.w.Source.LookupNames(ctx, names)
}

func (s deriveSource) LookupDescs(ctx context.Context, pmids []pcp.PMID) ([]pcp.Desc, error) {
	return s.w.Source.LookupDescs(ctx, pmids)
}

func (s deriveSource) LookupInDom(ctx context.Context, indom pcp.InDom, name string) (int32, error) {
	return s.w.Source.LookupInDom(ctx, indom, name)
}

func (s deriveSource) NameInDom(ctx context.Context, indom pcp.InDom, inst int32) (string, error) {
	return s.w.Source.NameInDom(ctx, indom, inst)
}

func (s deriveSource) NameID(ctx context.Context, pmid pcp.PMID) (string, error) {
	return s.w.Source.NameID(ctx, pmid)
}

func (s deriveSource) ChildrenStatus(ctx context.Context, name string) ([]pmns.Child, error) {
	return s.w.Source.ChildrenStatus(ctx, name)
}

func (s deriveSource) Traverse(ctx context.Context, name string) ([]string, error) {
	return s.w.Source.Traverse(ctx, name)
}

func (s deriveSource) Fetch(ctx context.Context, pmids []pcp.PMID, r *pcp.Result) error {
	sc, err := s.w.Source.Fetch(ctx, pmids, r)
	s.w.sc |= sc
	return err
}

// AddDerived defines a derived metric in this context only, as
// pmAddDerived does: it hides a global one of the same name and is
// checked against the context's metrics at once. Errors wrap
// pcp.ErrBadDerive; a *derive.SyntaxError gives the position.
func (w *Source) AddDerived(ctx context.Context, name, expr string) error {
	return w.d.AddDerived(ctx, name, expr)
}

// AddDerivedMetric is AddDerived with libpcp's message,
// pmAddDerivedMetric: the call, the expression, a caret under the
// mistake and the reason, or "" on success.
func (w *Source) AddDerivedMetric(ctx context.Context, name, expr string) (string, error) {
	err := w.AddDerived(ctx, name, expr)
	if err != nil {
		return err.Error() + "\n", err
	}
	return "", nil
}

// BindError says why a derived metric cannot be used in this context (an
// operand it lacks, a semantic error), or nil when it can.
func (w *Source) BindError(ctx context.Context, pmid pcp.PMID) error {
	return w.d.BindError(ctx, pmid)
}

// Reconnect re-establishes the wrapped context, when it can be, and has
// every derived metric checked again when next used, as
// pmReconnectContext does.
func (w *Source) Reconnect(ctx context.Context) error {
	rc, ok := w.Source.(interface{ Reconnect(context.Context) error })
	if !ok {
		return fmt.Errorf("pmapi: Reconnect on %s context: %w", w.Source.Kind(), pcp.ErrNotHost)
	}
	if err := rc.Reconnect(ctx); err != nil {
		return err
	}
	w.d.Rebind()
	return nil
}

// TimeZone is the wrapped context's time zone, where it has one.
func (w *Source) TimeZone(ctx context.Context) (string, error) {
	tz, ok := w.Source.(interface {
		TimeZone(context.Context) (string, error)
	})
	if !ok {
		return "", fmt.Errorf("pmapi: TimeZone: %w", pcp.ErrNYI)
	}
	return tz.TimeZone(ctx)
}

// LookupName returns the PMID of a real or derived metric.
func (w *Source) LookupName(ctx context.Context, name string) (pcp.PMID, error) {
	pmids, err := w.d.LookupNames(ctx, []string{name})
	if err != nil {
		return pcp.PMIDNull, err
	}
	if len(pmids) != 1 || pmids[0] == pcp.PMIDNull {
		return pcp.PMIDNull, fmt.Errorf("pmapi: LookupName %q: %w", name, pcp.ErrName)
	}
	return pmids[0], nil
}

// LookupNames maps names to PMIDs, real metrics before derived ones.
func (w *Source) LookupNames(ctx context.Context, names []string) ([]pcp.PMID, error) {
	return w.d.LookupNames(ctx, names)
}

// NameID returns the name of a real or derived metric.
func (w *Source) NameID(ctx context.Context, pmid pcp.PMID) (string, error) {
	return w.d.NameID(ctx, pmid)
}

// NameAll returns every name of a PMID; a derived metric has one.
func (w *Source) NameAll(ctx context.Context, pmid pcp.PMID) ([]string, error) {
	if derive.IsDerived(pmid) {
		if name, err := w.d.NameID(ctx, pmid); err == nil {
			return []string{name}, nil
		}
	}
	return w.Source.NameAll(ctx, pmid)
}

// ChildrenStatus lists the children of name, derived ones included.
func (w *Source) ChildrenStatus(ctx context.Context, name string) ([]pmns.Child, error) {
	return w.d.ChildrenStatus(ctx, name)
}

// Children lists the names of the children of name.
func (w *Source) Children(ctx context.Context, name string) ([]string, error) {
	kids, err := w.d.ChildrenStatus(ctx, name)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(kids))
	for i, k := range kids {
		names[i] = k.Name
	}
	return names, nil
}

// Traverse lists the metrics under name, derived ones after real ones.
//
// Against a pmcd, as in libpcp, derived metrics are bound as they are
// found and those that cannot be bound are left out. Archives and local
// contexts have their namespace in the process, which libpcp walks a
// level at a time without binding: a derived metric shows up there even
// when it cannot be used, and only asking for its descriptor says so.
func (w *Source) Traverse(ctx context.Context, name string) ([]string, error) {
	if w.Source.Kind() == pmapi.KindHost {
		return w.d.Traverse(ctx, name)
	}
	return walk(ctx, w.d.ChildrenStatus, name, nil)
}

// walk lists the leaves at and below name a level at a time, as
// libpcp's traversal of a namespace held in the process does; a name
// without children (a leaf, the root of a dynamic subtree) is itself.
func walk(ctx context.Context, children func(context.Context, string) ([]pmns.Child, error), name string, names []string) ([]string, error) {
	kids, err := children(ctx, name)
	if err != nil {
		return names, err
	}
	if len(kids) == 0 {
		if name == "" {
			return names, nil
		}
		return append(names, name), nil
	}
	for _, k := range kids {
		full := k.Name
		if name != "" {
			full = name + "." + k.Name
		}
		if k.Leaf {
			names = append(names, full)
			continue
		}
		if names, err = walk(ctx, children, full, names); err != nil {
			return names, err
		}
	}
	return names, nil
}

// LookupDesc returns a descriptor; a derived metric that cannot be bound
// in this context is pcp.ErrBadDerive.
func (w *Source) LookupDesc(ctx context.Context, pmid pcp.PMID) (pcp.Desc, error) {
	if !derive.IsDerived(pmid) {
		// the wrapped context's own request, as libpcp makes it
		return w.Source.LookupDesc(ctx, pmid)
	}
	return w.d.LookupDesc(ctx, pmid)
}

// LookupDescs returns descriptors; one the context cannot give has
// pcp.PMIDNull for its PMID.
func (w *Source) LookupDescs(ctx context.Context, pmids []pcp.PMID) ([]pcp.Desc, error) {
	if !anyDerived(pmids) {
		return w.Source.LookupDescs(ctx, pmids)
	}
	return w.d.LookupDescs(ctx, pmids)
}

// LookupText returns help text; a derived metric has what its
// configuration file set (global metrics only), falling back from the
// full text to the one-line one unless pmapi.TextDirect is given.
func (w *Source) LookupText(ctx context.Context, pmid pcp.PMID, level pmapi.TextLevel) (string, error) {
	if !derive.IsDerived(pmid) {
		return w.Source.LookupText(ctx, pmid, level)
	}
	help := level&pmapi.TextOneLine == 0
	text, err := w.d.LookupText(pmid, help)
	if err == nil && help && level&pmapi.TextDirect != 0 {
		// the fallback to the one-line text is not wanted
		if one, oerr := w.d.LookupText(pmid, false); oerr == nil && one == text {
			err = pcp.ErrText
		}
	}
	if err != nil {
		return "", fmt.Errorf("pmapi: LookupText %s: %w", pmid, err)
	}
	return text, nil
}

// Fetch fetches real and derived metrics; the real metrics derived ones
// need are fetched once, with the others asked for.
func (w *Source) Fetch(ctx context.Context, pmids []pcp.PMID, r *pcp.Result) (pmapi.StateChange, error) {
	if !anyDerived(pmids) {
		return w.Source.Fetch(ctx, pmids, r)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.sc = 0
	err := w.d.Fetch(ctx, pmids, r)
	return w.sc, err
}

func anyDerived(pmids []pcp.PMID) bool {
	for _, p := range pmids {
		if derive.IsDerived(p) {
			return true
		}
	}
	return false
}

// RegisterDerived registers a global derived metric for every context of
// the process, pmRegisterDerived: the expression is parsed now and
// checked against each context's metrics when first used there. A
// syntax error is a *derive.SyntaxError wrapping pcp.ErrBadDerive.
func RegisterDerived(name, expr string) error {
	return derive.RegisterDerived(name, expr)
}

// RegisterDerivedMetric is RegisterDerived with libpcp's message,
// pmRegisterDerivedMetric; the message is "" on success.
func RegisterDerivedMetric(name, expr string) (string, error) {
	return derive.RegisterDerivedMetric(name, expr)
}

// LoadDerivedConfig loads global definitions from the files and
// directories of path, separated by ':', pmLoadDerivedConfig. Bad lines
// are reported on standard error and skipped; it returns how many
// metrics were registered.
func LoadDerivedConfig(path string) (int, error) {
	return derive.LoadDerivedConfig(path)
}

// DerivedErrStr is pmDerivedErrStr for the error a RegisterDerived or
// RegisterDerivedMetric call returned: libpcp's reason the definition
// failed, "" for nil. libpcp keeps the last one per thread; here the
// caller keeps the error, so concurrent registrations cannot see each
// other's.
func DerivedErrStr(err error) string {
	var se *derive.SyntaxError
	if errors.As(err, &se) {
		return se.Msg
	}
	if err != nil {
		return err.Error()
	}
	return ""
}

// NewContext makes a context as pmapi.NewContext does (hosts and
// archives; Wrap a local context of pmapi/local) and lays the process's
// derived metrics over it, as pmNewContext gives them.
func NewContext(ctx context.Context, kind pmapi.Kind, name string, opts ...pmapi.Option) (*Source, error) {
	src, err := pmapi.NewContext(ctx, kind, name, opts...)
	if err != nil {
		return nil, err
	}
	return Wrap(src, nil), nil
}
