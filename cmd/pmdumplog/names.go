package main

import (
	"errors"

	"github.com/gopcp/gopcp/archive"
	"github.com/gopcp/gopcp/derive"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmns"
)

// nameSpace is where metric names come from: the archive's own, or the
// one -n loaded, which libpcp then uses instead.
type nameSpace interface {
	Names(pmid pcp.PMID) ([]string, error)
	LookupName(name string) (pcp.PMID, error)
	Traverse(name string) ([]string, error)
}

// fileNames adapts a name space loaded with -n.
type fileNames struct{ t *pmns.Tree }

func (f fileNames) Names(pmid pcp.PMID) ([]string, error)    { return f.t.NameAll(pmid) }
func (f fileNames) LookupName(name string) (pcp.PMID, error) { return f.t.Lookup(name) }
func (f fileNames) Traverse(name string) ([]string, error)   { return f.t.Traverse(name) }

// withDerived answers a leaf name the name space does not know with a
// derived metric's PMID, as libpcp's pmLookupName does in any context:
// the anonymous event.flags and event.missed and the definitions of
// PCP_DERIVED_CONFIG, whether or not the archive has their operands.
// No record holds a derived PMID, so such a name prints no values.
type withDerived struct {
	nameSpace
	reg *derive.Registry
}

func (w withDerived) LookupName(name string) (pcp.PMID, error) {
	id, err := w.nameSpace.LookupName(name)
	if err == nil || !errors.Is(err, pcp.ErrName) {
		return id, err
	}
	for _, d := range w.reg.Defs() {
		if d.Name == name {
			return d.PMID, nil
		}
	}
	return id, err
}

func namesFor(a *archive.Archive, t *pmns.Tree, reg *derive.Registry) nameSpace {
	var ns nameSpace = a.Meta
	if t != nil {
		ns = fileNames{t}
	}
	return withDerived{ns, reg}
}
