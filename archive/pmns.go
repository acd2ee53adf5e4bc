package archive

import (
	"strings"
	"sync"

	"github.com/gopcp/gopcp/pcp"
)

// pmIDNull is PM_ID_NULL, the PMID of an inner node of the name space.
const pmIDNull = 0xffffffff

// nameNode is a node of the archive's name space as libpcp builds it from
// the names in descriptor records: children are kept newest first, and a
// name that clashes with an existing one of another PMID is dropped.
// Its full name is a prefix of the name it was made for, that string's
// bytes shared by every node it made, its own name the part from nameAt:
// no name is built again from its parts.
type nameNode struct {
	path          string
	pmid          uint32
	nameAt        uint32
	parent, first *nameNode
	next          *nameNode
}

// name is the node's last component.
func (n *nameNode) name() string { return n.path[n.nameAt:] }

type nameTree struct {
	root nameNode
	// names is each PMID's names in pmNameAll's order, indexed by
	// finish the first time one is asked for: a slice a PMID was 1,316
	// allocations of the 100 MB archive's loading, for a replay tool
	// that asks for none
	names  map[pcp.PMID][]string
	once   sync.Once
	leaves int // how many, to size names
	// slab is where new nodes are cut from, nameSlab at a time: a node
	// an allocation was a sixth of loading the 100 MB archive's metadata
	slab []nameNode
}

// nameSlab is how many nodes a slab of the name tree holds.
const nameSlab = 128

// namesOf is pmid's names in pmNameAll's order; safe for concurrent use
// once the tree is built.
func (t *nameTree) namesOf(pmid pcp.PMID) []string {
	t.once.Do(t.finish)
	return t.names[pmid]
}

func newNameTree() *nameTree { return &nameTree{root: nameNode{pmid: pmIDNull}} }

// add inserts name for pmid as __pmAddPMNSNode does; a clash is ignored,
// as libpcp ignores PM_ERR_PMID when loading an archive.
func (t *nameTree) add(pmid pcp.PMID, name string) {
	root := &t.root
	rest := name
	for {
		comp, tail, more := strings.Cut(rest, ".")
		var np *nameNode
		for c := root.first; c != nil; c = c.next {
			if c.name() == comp {
				np = c
				break
			}
		}
		if np == nil {
			parent := root
			first := true
			at := len(name) - len(rest)
			for {
				end := at + len(comp)
				n := t.node()
				*n = nameNode{path: name[:end], nameAt: uint32(at), pmid: pmIDNull, parent: parent}
				if first {
					first = false
					n.next = parent.first
				}
				parent.first = n
				parent = n
				if !more {
					break
				}
				at = end + 1
				comp, tail, more = strings.Cut(tail, ".")
			}
			parent.pmid = uint32(pmid)
			t.leaves++
			return
		}
		if !more {
			return // same PMID: nothing to do; another: PM_ERR_PMID, ignored
		}
		root, rest = np, tail
	}
}

// node returns a new zero node from the slab.
func (t *nameTree) node() *nameNode {
	if len(t.slab) == cap(t.slab) {
		t.slab = make([]nameNode, 0, nameSlab)
	}
	t.slab = t.slab[:len(t.slab)+1]
	return &t.slab[len(t.slab)-1]
}

// finish indexes the names of each PMID in the order pmNameAll returns
// them: libpcp's hash chains are filled in a depth-first walk, each new
// node at the head, so the names come in reverse walk order.
func (t *nameTree) finish() {
	t.names = make(map[pcp.PMID][]string, t.leaves)
	var walk func(n *nameNode)
	walk = func(n *nameNode) {
		for c := n.first; c != nil; c = c.next {
			if c.pmid != pmIDNull {
				p := pcp.PMID(c.pmid)
				t.names[p] = append(t.names[p], c.path)
			}
			walk(c)
		}
	}
	walk(&t.root)
	for _, l := range t.names {
		for i, j := 0, len(l)-1; i < j; i, j = i+1, j-1 {
			l[i], l[j] = l[j], l[i]
		}
	}
}

// locate finds the node for a full name.
func (t *nameTree) locate(name string) *nameNode {
	n := &t.root
	for {
		comp, rest, more := strings.Cut(name, ".")
		var found *nameNode
		for c := n.first; c != nil; c = c.next {
			if c.name() == comp {
				found = c
				break
			}
		}
		if found == nil {
			return nil
		}
		if !more {
			return found
		}
		n, name = found, rest
	}
}

// leaves lists the full names of the leaves under n in the order
// pmTraversePMNS visits them.
func leaves(n *nameNode, prefix string, out []string) []string {
	if n.first == nil {
		return append(out, prefix)
	}
	for c := n.first; c != nil; c = c.next {
		out = leaves(c, c.path, out)
	}
	return out
}
