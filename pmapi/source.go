package pmapi

import (
	"context"
	"fmt"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmns"
)

// Kind is the kind of a context, PCP's PM_CONTEXT_* numbers.
type Kind int

// Context kinds.
const (
	KindLocal   Kind = 0 // PM_CONTEXT_LOCAL: in-process agents, no pmcd
	KindHost    Kind = 1 // PM_CONTEXT_HOST: a pmcd
	KindArchive Kind = 2 // PM_CONTEXT_ARCHIVE: PCP archives
)

func (k Kind) String() string {
	switch k {
	case KindLocal:
		return "local"
	case KindHost:
		return "host"
	case KindArchive:
		return "archive"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Source is a PMAPI context of any kind: every tool and library that
// reads metrics takes a Source, so that it works alike on a pmcd
// (*HostContext), on in-process agents (pmapi/local's Context) and on archives (the
// archive context fills in the same methods, answering Store with
// pcp.ErrNotHost). Derived metrics wrap a Source in another Source.
//
// Every method that may talk to a server takes a context.Context. The
// implementations in this package are safe for concurrent use.
type Source interface {
	// The namespace.
	LookupName(ctx context.Context, name string) (pcp.PMID, error)
	LookupNames(ctx context.Context, names []string) ([]pcp.PMID, error)
	NameID(ctx context.Context, pmid pcp.PMID) (string, error)
	NameAll(ctx context.Context, pmid pcp.PMID) ([]string, error)
	Children(ctx context.Context, name string) ([]string, error)
	ChildrenStatus(ctx context.Context, name string) ([]pmns.Child, error)
	Traverse(ctx context.Context, name string) ([]string, error)

	// Metadata: descriptors, instance domains and help text.
	LookupDesc(ctx context.Context, pmid pcp.PMID) (pcp.Desc, error)
	LookupDescs(ctx context.Context, pmids []pcp.PMID) ([]pcp.Desc, error)
	GetInDom(ctx context.Context, indom pcp.InDom) ([]Instance, error)
	LookupInDom(ctx context.Context, indom pcp.InDom, name string) (int32, error)
	NameInDom(ctx context.Context, indom pcp.InDom, inst int32) (string, error)
	LookupText(ctx context.Context, pmid pcp.PMID, level TextLevel) (string, error)
	LookupInDomText(ctx context.Context, indom pcp.InDom, level TextLevel) (string, error)

	// The label sets of each level of the label hierarchy,
	// pmGetContextLabels to pmGetInstancesLabels; MergedLabels puts them
	// together as pmLookupLabels does.
	ContextLabels(ctx context.Context) ([]pcp.LabelSet, error)
	DomainLabels(ctx context.Context, domain uint32) ([]pcp.LabelSet, error)
	InDomLabels(ctx context.Context, indom pcp.InDom) ([]pcp.LabelSet, error)
	ClusterLabels(ctx context.Context, pmid pcp.PMID) ([]pcp.LabelSet, error)
	ItemLabels(ctx context.Context, pmid pcp.PMID) ([]pcp.LabelSet, error)
	InstancesLabels(ctx context.Context, indom pcp.InDom) ([]pcp.LabelSet, error)

	// Values: the instance profile says which instances of each
	// instance domain a fetch returns.
	AddProfile(indom pcp.InDom, insts []int32) error
	DelProfile(indom pcp.InDom, insts []int32) error
	Fetch(ctx context.Context, pmids []pcp.PMID, r *pcp.Result) (StateChange, error)

	// Store changes values, as pmStore does.
	Store(ctx context.Context, r *pcp.Result) error
	// HostName is pmGetContextHostName: the host the metrics come from.
	// The name is always set; the error says why the best answer could
	// not be had.
	HostName(ctx context.Context) (string, error)
	// Kind says what sort of context this is.
	Kind() Kind
	// Close ends the context, as pmDestroyContext does.
	Close() error
}

// Kind is KindHost.
func (c *HostContext) Kind() Kind { return KindHost }

var _ Source = (*HostContext)(nil)

// NewContext makes a context of the given kind, as pmNewContext does: for
// KindHost, name is a host specification (see NewHostContext); for
// KindArchive, an archive, a comma-separated list of archives or a
// directory of them (see NewArchiveContext). KindLocal is package
// pmapi/local's NewContext, and pcp.ErrNoContext here.
func NewContext(ctx context.Context, kind Kind, name string, opts ...Option) (Source, error) {
	switch kind {
	case KindHost:
		c, err := NewHostContext(ctx, name, opts...)
		if err != nil {
			return nil, err
		}
		return c, nil
	case KindLocal:
		// made by pmapi/local, so that this package does not link the
		// agent framework
		return nil, fmt.Errorf("pmapi: a local context is made by pmapi/local.NewContext: %w", pcp.ErrNoContext)
	case KindArchive:
		c, err := NewArchiveContext(ctx, name, opts...)
		if err != nil {
			return nil, err
		}
		return c, nil
	}
	return nil, fmt.Errorf("pmapi: context kind %d: %w", int(kind), pcp.ErrNoContext)
}
