package pmns

import (
	"fmt"
	"strings"
	"sync"

	"github.com/gopcp/gopcp/pcp"
)

// node is one name in the tree. A leaf has a PMID; a non-terminal has
// pcp.PMIDNull and at least one child (the root may have none).
type node struct {
	name   string // the last component
	path   string // the full name; "" for the root
	parent *node
	kids   []*node // in PCP's order
	pmid   pcp.PMID
	// same is the next leaf of pmid in the order of Tree.ids. A chain
	// through the nodes costs nothing (node stays in the same size
	// class) where a list per PMID cost a slice and twice the map.
	same *node
}

// Tree is a PMNS. It is safe for concurrent use: queries share a read lock
// and Add takes the write lock, so lookups from many goroutines proceed in
// parallel.
type Tree struct {
	mu   sync.RWMutex
	root *node
	// names finds a node by full name as libpcp's walk from the root does:
	// at each level the first child of that name.
	names map[string]*node
	// ids is the first of the leaves of each PMID, chained through
	// node.same in the order libpcp's hash chain yields them: latest in
	// preorder first.
	ids map[pcp.PMID]*node
}

// New returns an empty name space, ready for Add.
func New() *Tree {
	return &Tree{
		root:  &node{name: "root", pmid: pcp.PMIDNull},
		names: make(map[string]*node),
		ids:   make(map[pcp.PMID]*node),
	}
}

// newTree indexes a tree the parser built.
func newTree(root *node) *Tree {
	// The maps sized once: grown from empty, a system namespace's
	// thousands of names left half a megabyte of outgrown tables behind,
	// fresh pages in a short-lived tool (pminfo -L).
	nodes, leaves := count(root)
	t := &Tree{root: root, names: make(map[string]*node, nodes), ids: make(map[pcp.PMID]*node, leaves)}
	t.index(root)
	return t
}

// count is the number of nodes below n and how many are leaves.
func count(n *node) (nodes, leaves int) {
	for _, k := range n.kids {
		kn, kl := count(k)
		nodes += 1 + kn
		leaves += kl
		if k.pmid != pcp.PMIDNull {
			leaves++
		}
	}
	return nodes, leaves
}

// index records the nodes below n in preorder, each leaf in front of its
// PMID's chain, so that the chain ends latest in preorder first. A node is
// reachable by name only if its parent is and no earlier sibling has its
// name.
func (t *Tree) index(n *node) {
	for _, k := range n.kids {
		if _, dup := t.names[k.path]; !dup && (n == t.root || t.names[n.path] == n) {
			t.names[k.path] = k
		}
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
	return t.names[name]
}

// Lookup returns the PMID of a metric name, as pmLookupName does with a
// local PMNS. A name at or below the root of a dynamic subtree yields that
// root's PMID (see DynamicDomain): the agent of that domain knows the rest.
// Errors wrap pcp.ErrNonLeaf for a non-terminal and pcp.ErrName for a name
// not in the tree.
func (t *Tree) Lookup(name string) (pcp.PMID, error) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	if n := t.names[name]; n != nil {
		if len(n.kids) > 0 {
			return pcp.PMIDNull, fmt.Errorf("pmns: %q is not a metric: %w", name, pcp.ErrNonLeaf)
		}
		return n.pmid, nil
	}
	for prefix := name; ; {
		i := strings.LastIndexByte(prefix, '.')
		if i < 0 {
			break
		}
		prefix = prefix[:i]
		if n := t.names[prefix]; n != nil && len(n.kids) == 0 && IsDynamicRoot(n.pmid) {
			return n.pmid, nil
		}
	}
	return pcp.PMIDNull, fmt.Errorf("pmns: unknown metric name %q: %w", name, pcp.ErrName)
}

// NameID returns the name pmNameID gives a PMID: of several names, the
// last in the tree's order. Errors wrap pcp.ErrPMID, also for the PMID of a
// dynamic subtree's root, which a local PMNS cannot name.
func (t *Tree) NameID(pmid pcp.PMID) (string, error) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	leaf, err := t.leavesOf(pmid)
	if err != nil {
		return "", err
	}
	return leaf.path, nil
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
		names = append(names, leaf.path)
	}
	return names, nil
}

// leavesOf is the first of pmid's leaves, the others chained from it.
func (t *Tree) leavesOf(pmid pcp.PMID) (*node, error) {
	leaf := t.ids[pmid]
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
		full := joinPath(name, k.name)
		if m := t.locate(full); m != nil {
			t.traverse(m, full, out)
		}
	}
}

// Len is the number of names that map to a PMID (leaves, counting the
// roots of dynamic subtrees).
func (t *Tree) Len() int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	n := 0
	for _, leaf := range t.ids {
		for ; leaf != nil; leaf = leaf.same {
			n++
		}
	}
	return n
}
