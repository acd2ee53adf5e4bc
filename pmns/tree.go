package pmns

import (
	"fmt"
	"strings"
	"sync"

	"github.com/gopcp/gopcp/pcp"
)

// node is one name in the tree. A leaf has a PMID; a non-terminal has
// pcp.PMIDNull and at least one child (the root may have none). A node
// holds no full name: a system namespace's thousands of them, each a
// string, were a tenth of the pages a short-lived tool's load touched
// (pminfo -L); fullName builds one when asked.
type node struct {
	name   string // the last component
	parent *node
	kids   []*node // in PCP's order
	pmid   pcp.PMID
	// same is the next leaf of pmid in the order of Tree.ids. A chain
	// through the nodes costs nothing (node stays in the same size
	// class) where a list per PMID cost a slice and twice the map.
	same *node
}

// fullName is n's dotted name from the root; "" for the root.
func (n *node) fullName() string {
	if n.parent == nil {
		return ""
	}
	size := -1
	for m := n; m.parent != nil; m = m.parent {
		size += len(m.name) + 1
	}
	b := make([]byte, size)
	at := size
	for m := n; m.parent != nil; m = m.parent {
		at -= len(m.name)
		copy(b[at:], m.name)
		if at > 0 {
			at--
			b[at] = '.'
		}
	}
	return string(b)
}

// Tree is a PMNS. It is safe for concurrent use: queries share a read lock
// and Add takes the write lock, so lookups from many goroutines proceed in
// parallel.
//
// Names are found by walking down from the root, as libpcp does, and not
// through an index: a map of every full name cost a short-lived tool more
// pages than a walk costs time. The index of PMIDs is built at the first
// question by PMID, which many runs never ask.
type Tree struct {
	mu   sync.RWMutex
	root *node
	// ids is the first of the leaves of each PMID, chained through
	// node.same in the order libpcp's hash chain yields them: latest in
	// preorder first. It is nil until idsOnce builds it; Add keeps it
	// once it is built.
	ids     map[pcp.PMID]*node
	idsOnce sync.Once
	// found and named answer again what was asked before (cache.go).
	found map[string]*node
	named map[pcp.PMID]string
}

// New returns an empty name space, ready for Add.
func New() *Tree {
	return &Tree{root: &node{name: "root", pmid: pcp.PMIDNull}}
}

// newTree wraps a tree the parser built.
func newTree(root *node) *Tree { return &Tree{root: root} }

// byID is the index of PMIDs, built at its first use. Callers hold the
// lock, shared or not: the build writes only the index and the leaves'
// chains, which no reader looks at before it is done.
func (t *Tree) byID() map[pcp.PMID]*node {
	t.idsOnce.Do(func() {
		t.ids = make(map[pcp.PMID]*node, countLeaves(t.root))
		t.index(t.root)
	})
	return t.ids
}

// countLeaves is the number of leaves below n.
func countLeaves(n *node) int {
	leaves := 0
	for _, k := range n.kids {
		leaves += countLeaves(k)
		if k.pmid != pcp.PMIDNull {
			leaves++
		}
	}
	return leaves
}

// index records the leaves below n in preorder, each in front of its
// PMID's chain, so that the chain ends latest in preorder first.
func (t *Tree) index(n *node) {
	for _, k := range n.kids {
		if k.pmid != pcp.PMIDNull {
			k.same = t.ids[k.pmid]
			t.ids[k.pmid] = k
		}
		t.index(k)
	}
}

// locate finds a node by name; "" is the root.
func (t *Tree) locate(name string) *node {
	if name == "" {
		return t.root
	}
	n, found := t.walk(name)
	if !found {
		return nil
	}
	return n
}

// walk follows name down from the root as libpcp does, taking at each
// level the first child of the component's name. It returns the deepest
// node reached, which is name's own when found.
func (t *Tree) walk(name string) (n *node, found bool) {
	n, rest := t.root, name
	for {
		comp, tail, more := strings.Cut(rest, ".")
		k := firstKid(n, comp)
		if k == nil {
			return n, false
		}
		if !more {
			return k, true
		}
		n, rest = k, tail
	}
}

// Lookup returns the PMID of a metric name, as pmLookupName does with a
// local PMNS. A name at or below the root of a dynamic subtree yields that
// root's PMID (see DynamicDomain): the agent of that domain knows the rest.
// Errors wrap pcp.ErrNonLeaf for a non-terminal and pcp.ErrName for a name
// not in the tree.
func (t *Tree) Lookup(name string) (pcp.PMID, error) {
	t.mu.RLock()
	n, known := t.found[name]
	found := known
	if !known {
		n, found = t.walk(name)
	}
	pmid, err := t.lookedUp(name, n, found)
	t.mu.RUnlock()
	if found && !known {
		t.rememberNode(name, n)
	}
	return pmid, err
}

// lookedUp is Lookup's answer once name has been followed down to n,
// which is name's own node if found.
func (t *Tree) lookedUp(name string, n *node, found bool) (pcp.PMID, error) {
	switch {
	case name == "":
	case found:
		if len(n.kids) > 0 {
			return pcp.PMIDNull, fmt.Errorf("pmns: %q is not a metric: %w", name, pcp.ErrNonLeaf)
		}
		return n.pmid, nil
	case n != t.root && len(n.kids) == 0 && IsDynamicRoot(n.pmid):
		// Only the deepest name found can be a leaf: the names
		// above it have children.
		return n.pmid, nil
	}
	return pcp.PMIDNull, fmt.Errorf("pmns: unknown metric name %q: %w", name, pcp.ErrName)
}

// NameID returns the name pmNameID gives a PMID: of several names, the
// last in the tree's order. Errors wrap pcp.ErrPMID, also for the PMID of a
// dynamic subtree's root, which a local PMNS cannot name.
func (t *Tree) NameID(pmid pcp.PMID) (string, error) {
	t.mu.RLock()
	if name, ok := t.named[pmid]; ok {
		t.mu.RUnlock()
		return name, nil
	}
	leaf, err := t.leavesOf(pmid)
	if err != nil {
		t.mu.RUnlock()
		return "", err
	}
	name := leaf.fullName()
	t.mu.RUnlock()
	t.rememberName(pmid, leaf, name)
	return name, nil
}

// NameAll returns every name of a PMID in the order pmNameAll gives them:
// the reverse of the tree's order.
func (t *Tree) NameAll(pmid pcp.PMID) ([]string, error) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	leaf, err := t.leavesOf(pmid)
	if err != nil {
		return nil, err
	}
	var names []string
	for ; leaf != nil; leaf = leaf.same {
		names = append(names, leaf.fullName())
	}
	return names, nil
}

// leavesOf is the first of pmid's leaves, the others chained from it.
func (t *Tree) leavesOf(pmid pcp.PMID) (*node, error) {
	leaf := t.byID()[pmid]
	if leaf == nil || IsDynamicRoot(pmid) {
		return nil, fmt.Errorf("pmns: unknown PMID %s: %w", pmid.String(), pcp.ErrPMID)
	}
	return leaf, nil
}

// Child is one entry of Children: a name relative to its parent, and
// whether it is a leaf (PMNS_LEAF_STATUS) or not (PMNS_NONLEAF_STATUS).
type Child struct {
	Name string
	Leaf bool
}

// Children lists the children of a name ("" for the root) in PCP's order
// with their status, as pmGetChildrenStatus does. The root of a dynamic
// subtree is listed as a non-leaf, though asking for its own children, or a
// leaf's, gives none. Errors wrap pcp.ErrName.
func (t *Tree) Children(name string) ([]Child, error) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	n := t.locate(name)
	if n == nil {
		return nil, fmt.Errorf("pmns: unknown name %q: %w", name, pcp.ErrName)
	}
	if len(n.kids) == 0 {
		return nil, nil
	}
	kids := make([]Child, len(n.kids))
	for i, k := range n.kids {
		kids[i] = Child{Name: k.name, Leaf: len(k.kids) == 0 && !IsDynamicRoot(k.pmid)}
	}
	return kids, nil
}

// Traverse returns the full names of the leaves at and below name ("" for
// the whole tree) in the order pmTraversePMNS reports them. A leaf, or the
// root of a dynamic subtree, yields just itself. Errors wrap pcp.ErrName.
func (t *Tree) Traverse(name string) ([]string, error) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	n := t.locate(name)
	if n == nil {
		return nil, fmt.Errorf("pmns: unknown name %q: %w", name, pcp.ErrName)
	}
	var out []string
	t.traverse(n, name, &out)
	return out, nil
}

// traverse follows pmTraversePMNS, which finds each child again by its full
// name, so a repeated name (possible only in a file cut off inside its last
// block) leads back to the first node of that name.
func (t *Tree) traverse(n *node, name string, out *[]string) {
	if len(n.kids) == 0 {
		*out = append(*out, name)
		return
	}
	for _, k := range n.kids {
		// n was itself found by name, so the child found by full name
		// is the first of n's children with k's name.
		if m := firstKid(n, k.name); m != nil {
			t.traverse(m, joinPath(name, k.name), out)
		}
	}
}

// Len is the number of names that map to a PMID (leaves, counting the
// roots of dynamic subtrees).
func (t *Tree) Len() int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	n := 0
	for _, leaf := range t.byID() {
		for ; leaf != nil; leaf = leaf.same {
			n++
		}
	}
	return n
}
