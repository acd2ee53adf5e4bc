package pmns

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gopcp/gopcp/pcp"
)

// Add puts a metric name with its PMID into the tree, creating the
// non-terminals above it, as libpcp does when it builds a name space from
// an archive or an agent's names: a new name goes in front of its
// siblings, so names added later are listed (and traversed) first. Adding
// a name again with the same PMID does nothing.
//
// Errors wrap pcp.ErrName for a malformed name (empty, or with an empty
// component) and pcp.ErrPMID for pcp.PMIDNull or for a name already taken
// by a different PMID or by a non-terminal, or that would extend a leaf.
func (t *Tree) Add(name string, pmid pcp.PMID) error {
	if name == "" || strings.HasPrefix(name, ".") || strings.HasSuffix(name, ".") || strings.Contains(name, "..") {
		return fmt.Errorf("pmns: cannot add malformed name %q: %w", name, pcp.ErrName)
	}
	if pmid == pcp.PMIDNull {
		return fmt.Errorf("pmns: cannot add %q without a PMID: %w", name, pcp.ErrPMID)
	}
	t.mu.Lock()
	defer t.mu.Unlock()

	n := t.root
	rest := name
	for {
		comp, tail, more := strings.Cut(rest, ".")
		k := firstKid(n, comp)
		if k == nil {
			t.graft(n, rest, pmid)
			return nil
		}
		if !more {
			if k.pmid != pmid {
				return fmt.Errorf("pmns: %q is already %s, not %s: %w", name, describe(k), pmid.String(), pcp.ErrPMID)
			}
			return nil
		}
		if len(k.kids) == 0 {
			return fmt.Errorf("pmns: cannot add %q below metric %q: %w", name, k.fullName(), pcp.ErrPMID)
		}
		n, rest = k, tail
	}
}

func describe(n *node) string {
	if len(n.kids) > 0 {
		return "a non-terminal"
	}
	return n.pmid.String()
}

func firstKid(n *node, name string) *node {
	for _, k := range n.kids {
		if k.name == name {
			return k
		}
	}
	return nil
}

// graft creates the dotted names of rest below n, the first in front of
// n's children, and puts the leaf in the index of PMIDs if that is built
// (else its build will find it). Each new node's name is cut from rest,
// which they share rather than each holding a copy, and a child goes in
// front of its siblings in place, so that building a name space of N
// names under one parent allocates about N pointers, not N*N/2 in N new
// lists.
func (t *Tree) graft(n *node, rest string, pmid pcp.PMID) {
	parent := n
	for first := true; ; first = false {
		comp, tail, more := strings.Cut(rest, ".")
		k := &node{name: comp, parent: parent, pmid: pcp.PMIDNull}
		if first {
			parent.kids = slices.Insert(parent.kids, 0, k)
		} else {
			parent.kids = []*node{k}
		}
		parent = k
		if !more {
			break
		}
		rest = tail
	}
	parent.pmid = pmid
	delete(t.named, pmid)
	if t.ids != nil {
		t.insertLeaf(parent)
	}
}

// insertLeaf adds a leaf to its PMID's chain, keeping the chain latest in
// preorder first. New nodes never reorder existing ones, so one insertion
// keeps the chain right.
func (t *Tree) insertLeaf(leaf *node) {
	var prev *node
	next := t.ids[leaf.pmid]
	for next != nil && preorderBefore(leaf, next) {
		prev, next = next, next.same
	}
	leaf.same = next
	if prev == nil {
		t.ids[leaf.pmid] = leaf
	} else {
		prev.same = leaf
	}
}

// preorderBefore reports whether a comes before b in a preorder walk.
func preorderBefore(a, b *node) bool {
	pa, pb := ancestry(a), ancestry(b)
	i := 0
	for i < len(pa) && i < len(pb) && pa[i] == pb[i] {
		i++
	}
	switch {
	case i == len(pa):
		return true // a is b or an ancestor of b
	case i == len(pb):
		return false
	}
	// pa[i] and pb[i] are siblings under pa[i-1].
	for _, k := range pa[i-1].kids {
		switch k {
		case pa[i]:
			return true
		case pb[i]:
			return false
		}
	}
	return false
}

// ancestry is the path of nodes from the root down to n.
func ancestry(n *node) []*node {
	var up []*node
	for ; n != nil; n = n.parent {
		up = append(up, n)
	}
	for i, j := 0, len(up)-1; i < j; i, j = i+1, j-1 {
		up[i], up[j] = up[j], up[i]
	}
	return up
}
