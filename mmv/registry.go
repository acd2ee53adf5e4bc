package mmv

import (
	"os"
	"path/filepath"
	"strconv"
	"sync"
)

// Options configure a registry.
type Options struct {
	// Dir is the directory the file is written in. pmdammv reads
	// $PCP_TMP_DIR/mmv; DefaultDir resolves that directory.
	Dir string
	// Cluster is the PMID cluster pmdammv is asked to use, 1 to
	// MaxCluster; 0 derives one from the file's name, stepping past
	// clusters other files in Dir already claim.
	Cluster uint32
	// Flags are NoPrefix, Process and Sentinel.
	Flags Flags
	// Labels apply to every metric of the file.
	Labels []Label
}

// Registry is one MMV file: its instance domains and metrics, and once
// started, the mapped file their values live in. Adding metrics or
// instances is serialized by the registry; updating values is not and
// needs no lock.
type Registry struct {
	mu      sync.Mutex
	name    string
	dir     string
	cluster uint32
	given   bool // the cluster was chosen by the caller
	flags   Flags
	labels  []label

	indoms  []*InDom
	metrics []*Metric
	names   map[string]bool
	items   map[uint32]bool
	serials map[uint32]bool

	started bool
	closed  bool
	pinned  bool // a SingleCounter holds a value's address: no rewrites
	gen     uint64
	cur     []byte   // the mapping of the file readers see
	old     [][]byte // mappings replaced by rewrites, retired by Close

	stragglers []*straggler // additive values' previous homes, see settle
}

// label is a checked label, ready to write.
type label struct {
	payload  string
	optional bool
}

func checkLabels(what string, ls []Label) ([]label, error) {
	out := make([]label, 0, len(ls))
	for _, l := range ls {
		p, err := l.payload(what)
		if err != nil {
			return nil, err
		}
		out = append(out, label{p, l.Optional})
	}
	return out, nil
}

// New describes a registry written to the file name in o.Dir. Nothing is
// written until Start. The name must follow the metric name grammar,
// since pmdammv uses it as the metrics' prefix (mmv.<name>.<metric>).
func New(name string, o Options) (*Registry, error) {
	what := "registry " + strconv.Quote(name)
	if err := checkName(what, name); err != nil {
		return nil, err
	}
	if o.Dir == "" {
		return nil, errorf(ErrInvalid, what, "no directory given (DefaultDir gives PCP's)")
	}
	if o.Cluster > MaxCluster {
		return nil, errorf(ErrRange, what, "cluster %d is above %d", o.Cluster, MaxCluster)
	}
	if o.Flags&^(NoPrefix|Process|Sentinel) != 0 {
		return nil, errorf(ErrInvalid, what, "unknown flags %#x", uint32(o.Flags&^(NoPrefix|Process|Sentinel)))
	}
	ls, err := checkLabels(what, o.Labels)
	if err != nil {
		return nil, err
	}
	r := &Registry{
		name: name, dir: o.Dir, cluster: o.Cluster, given: o.Cluster != 0,
		flags: o.Flags, labels: ls,
		names: map[string]bool{}, items: map[uint32]bool{}, serials: map[uint32]bool{},
	}
	return r, nil
}

// Path is the file the registry writes.
func (r *Registry) Path() string { return filepath.Join(r.dir, r.name) }

// Cluster is the cluster written in the file's header: the one given, or
// once started, the one derived.
func (r *Registry) Cluster() uint32 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.cluster
}

// Version is the format version the file has (or would have now).
func (r *Registry) Version() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return int(r.chooseVersion())
}

// Start writes the file. From then on every value update is visible to
// readers, and every addition rewrites the file with a new generation.
func (r *Registry) Start() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return errorf(ErrClosed, "registry "+strconv.Quote(r.name), "registry is closed")
	}
	if r.started {
		return nil
	}
	taken, err := clustersInDir(r.dir, r.name)
	if err != nil {
		return err
	}
	if r.given && taken[r.cluster] {
		return errorf(ErrExists, "registry "+strconv.Quote(r.name), "cluster %d is already claimed by another file in %s", r.cluster, r.dir)
	}
	if !r.given {
		r.cluster = deriveCluster(r.name, taken)
	}
	r.started = true
	if err := r.rewrite(); err != nil {
		r.started = false
		return err
	}
	return nil
}

// Close stops the registry. With the Process flag the file is removed, as
// libpcp_mmv does; otherwise it stays, its values as they were. Updates
// through handles after Close go nowhere, and one racing with Close
// writes to memory the registry keeps for that (see retire), not the file.
func (r *Registry) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil
	}
	r.closed = true
	r.settle()
	r.stragglers = nil
	for _, m := range r.metrics {
		for _, c := range m.cells {
			c.detach()
		}
	}
	var err error
	if r.flags&Process != 0 && r.started {
		if e := os.Remove(r.Path()); e != nil && !os.IsNotExist(e) {
			err = e
		}
	}
	for _, b := range append(r.old, r.cur) {
		if b != nil {
			if e := retire(b); e != nil && err == nil {
				err = e
			}
		}
	}
	r.cur, r.old = nil, nil
	return err
}
