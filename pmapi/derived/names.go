package derived

import (
	"context"

	"github.com/gopcp/gopcp/derive"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmns"
)

// Names is a namespace read without a context (pminfo -n asked only for
// names and PMIDs) with the registry's derived names in it, as libpcp
// answers such questions from its table of global definitions: nothing
// is bound, so every definition is listed. It is safe for concurrent
// use.
type Names struct {
	d *derive.Layer
}

// NewNames lays the derived names of reg (derive.Global when nil) over
// tree.
func NewNames(tree *pmns.Tree, reg *derive.Registry) *Names {
	return &Names{d: derive.NewLayer(treeSource{tree}, reg)}
}

// Traverse lists the names under name, derived ones after the real ones
// at each level.
func (n *Names) Traverse(ctx context.Context, name string) ([]string, error) {
	return walk(ctx, n.d.ChildrenStatus, name, nil)
}

// NameID returns the name of a real or derived PMID.
func (n *Names) NameID(ctx context.Context, pmid pcp.PMID) (string, error) {
	return n.d.NameID(ctx, pmid)
}

// LookupNames maps names to PMIDs, real ones first.
func (n *Names) LookupNames(ctx context.Context, names []string) ([]pcp.PMID, error) {
	return n.d.LookupNames(ctx, names)
}

// treeSource is a namespace as package derive's Source: names only, every
// other question having no context to answer it.
type treeSource struct{ t *pmns.Tree }

func (s treeSource) LookupNames(_ context.Context, names []string) ([]pcp.PMID, error) {
	ids := make([]pcp.PMID, len(names))
	found := 0
	var last error
	for i, name := range names {
		id, err := s.t.Lookup(name)
		if err != nil {
			ids[i], last = pcp.PMIDNull, err
			continue
		}
		ids[i] = id
		found++
	}
	if found == 0 && last != nil {
		return ids, last
	}
	return ids, nil
}

var errNoContext error = noContextError{}

// noContextError is errNoContext's type: a package-level fmt.Errorf would
// run fmt at every program's start-up.
type noContextError struct{}

func (noContextError) Error() string {
	return "derived: namespace without a context: " + pcp.ErrNoContext.Error()
}
func (noContextError) Unwrap() error { return pcp.ErrNoContext }

func (treeSource) LookupDescs(context.Context, []pcp.PMID) ([]pcp.Desc, error) {
	return nil, errNoContext
}

func (treeSource) LookupInDom(context.Context, pcp.InDom, string) (int32, error) {
	return 0, errNoContext
}

func (treeSource) NameInDom(context.Context, pcp.InDom, int32) (string, error) {
	return "", errNoContext
}

func (treeSource) Fetch(context.Context, []pcp.PMID, *pcp.Result) error { return errNoContext }

func (s treeSource) NameID(_ context.Context, pmid pcp.PMID) (string, error) { return s.t.NameID(pmid) }

func (s treeSource) ChildrenStatus(_ context.Context, name string) ([]pmns.Child, error) {
	return s.t.Children(name)
}

func (s treeSource) Traverse(_ context.Context, name string) ([]string, error) {
	return s.t.Traverse(name)
}
