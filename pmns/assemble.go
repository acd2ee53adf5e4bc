package pmns

import (
	"fmt"
	"slices"

	"github.com/gopcp/gopcp/pcp"
)

// assemble joins the blocks into one tree as libpcp's second pass does: the
// last "root" block is the root, each non-terminal takes the children of
// the last block named by its path, and every block must be used once.
func assemble(l *lexer, blocks []*subtree, noDups bool) (*node, bool) {
	l.line = -1
	// The latest block of each name, the earlier ones chained behind it:
	// one map sized once, not a slice a name in a map grown from empty.
	byName := make(map[string]*subtree, len(blocks))
	for _, b := range blocks {
		b.earlier = byName[b.name]
		byName[b.name] = b
	}
	take := func(name string) *subtree {
		b := byName[name]
		if b != nil {
			byName[name] = b.earlier
		}
		return b
	}

	top := take("root")
	if top == nil {
		l.diag(`No name space entry for "root"`)
		return nil, false
	}
	if take("root") != nil {
		l.diag(`Multiple name space entries for "root"`)
		return nil, false
	}
	root := &node{name: "root", pmid: pcp.PMIDNull, kids: top.kids}
	if !attach(l, root, "", take) {
		return nil, false
	}

	var left []*subtree
	for _, b := range byName {
		for ; b != nil; b = b.earlier {
			left = append(left, b)
		}
	}
	if len(left) > 0 {
		// libpcp lists them newest first.
		slices.SortFunc(left, func(a, b *subtree) int { return b.seq - a.seq })
		for _, b := range left {
			l.diagBuf(fmt.Sprintf("Disconnected subtree (\"%s\") in name space", b.name))
		}
		return nil, false
	}

	if noDups && !checkDups(l, root) {
		return nil, false
	}
	prune(root)
	return root, true
}

// attach gives each non-terminal below n (whose full name is path) its
// block's children, depth first, and sets parents on the way.
func attach(l *lexer, n *node, path string, take func(string) *subtree) bool {
	for _, k := range n.kids {
		k.parent = n
		if k.pmid != pcp.PMIDNull {
			continue
		}
		kpath := joinPath(path, k.name)
		b := take(kpath)
		if b == nil {
			l.diagBuf(fmt.Sprintf("Cannot find definition for non-terminal node \"%s\" in name space", kpath))
			return false
		}
		k.kids = b.kids
		if !attach(l, k, kpath, take) {
			return false
		}
	}
	return true
}

// checkDups refuses a second name for a PMID, as pmLoadASCIINameSpace does
// when duplicates are not allowed. Roots of dynamic subtrees may share.
func checkDups(l *lexer, root *node) bool {
	last := make(map[pcp.PMID]*node)
	ok := true
	walkLeaves(root, func(n *node) bool {
		if prev := last[n.pmid]; prev != nil && !IsDynamicRoot(n.pmid) {
			l.diagBuf(fmt.Sprintf("Duplicate metric id (%s) in name space for metrics \"%s\" and \"%s\"\n",
				n.pmid.String(), n.fullName(), prev.fullName()))
			ok = false
			return false
		}
		last[n.pmid] = n
		return true
	})
	return ok
}

// walkLeaves calls fn on every node with a PMID, in preorder, until fn
// returns false.
func walkLeaves(n *node, fn func(*node) bool) bool {
	for _, k := range n.kids {
		if k.pmid != pcp.PMIDNull && !fn(k) {
			return false
		}
		if !walkLeaves(k, fn) {
			return false
		}
	}
	return true
}

// prune drops non-terminals with no metric below them. libpcp keeps them
// but they stay hidden from every lookup (their PMID keeps its mark bit), so
// dropping them changes no answer.
func prune(n *node) bool {
	if n.pmid != pcp.PMIDNull {
		return true
	}
	kept := n.kids[:0]
	for _, k := range n.kids {
		if prune(k) {
			kept = append(kept, k)
		}
	}
	clear(n.kids[len(kept):])
	n.kids = kept
	return len(kept) > 0
}

func joinPath(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "." + name
}
