package pmns

import (
	"strings"

	"github.com/gopcp/gopcp/pcp"
)

// A Tree remembers the names it has found and the names NameID has given,
// so that a program asking the same again (pmcd for its clients, a
// logger or a replay naming every value) is answered from a map, while a
// short-lived tool, which asks a few, pays for no index of the whole
// tree. Both maps are read under the read lock and written under the
// write lock, taken only when an answer is new. They hold only answers
// that cannot change: a name, once found, always leads to the same node,
// as nodes are never removed and Add never puts a sibling of the same
// name in front of one; a PMID's name is forgotten when Add gives the
// PMID another leaf.

// rememberNode records the node found for name. The name is copied: a
// caller's string may be a slice of a large buffer (a PDU) the map would
// otherwise keep.
func (t *Tree) rememberNode(name string, n *node) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.found == nil {
		t.found = map[string]*node{}
	}
	t.found[strings.Clone(name)] = n
}

// rememberName records NameID's answer for pmid, unless an Add since the
// answer was made has given pmid another first leaf.
func (t *Tree) rememberName(pmid pcp.PMID, leaf *node, name string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ids[pmid] != leaf {
		return
	}
	if t.named == nil {
		t.named = map[pcp.PMID]string{}
	}
	t.named[pmid] = name
}
