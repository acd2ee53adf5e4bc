package main

import (
	"github.com/gopcp/gopcp/archive"
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

func namesFor(a *archive.Archive, t *pmns.Tree) nameSpace {
	if t != nil {
		return fileNames{t}
	}
	return a.Meta
}
