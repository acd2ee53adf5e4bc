package pmns

import (
	"fmt"
	"slices"

	"github.com/gopcp/gopcp/pcp"
)

// subtree is one "path { ... }" block of a file, before the blocks are
// joined into a tree.
type subtree struct {
	name string
	kids []*node
	seq  int // definition order
	// earlier is the previous block of the same name, if any.
	earlier *subtree
}

// parseBlocks runs libpcp's parser over the token stream: blocks of names,
// each name followed by a PMID for a leaf or by nothing for a non-terminal.
// The input may end anywhere, even inside a block, as libpcp allows.
func parseBlocks(l *lexer) ([]*subtree, bool) {
	var blocks []*subtree
	var cur *subtree
	// kids gathers the open block's children, reused from block to
	// block; each block keeps a copy of its size, cut from a shared
	// chunk, not the slices outgrown on the way in as many size classes.
	var kids, chunk []*node
	closeBlock := func() {
		switch n := len(kids); {
		case n == 0:
		case n > kidChunk/4:
			cur.kids = slices.Clone(kids)
		default:
			if cap(chunk)-len(chunk) < n {
				chunk = make([]*node, 0, kidChunk)
			}
			start := len(chunk)
			chunk = append(chunk, kids...)
			// Capped, so that Add's insertion copies rather than
			// write over the next block's.
			cur.kids = chunk[start:len(chunk):len(chunk)]
		}
		kids = kids[:0]
	}
	state := 0
	for {
		tok, ok := l.next()
		if !ok {
			return nil, false
		}
		if tok.kind == tokEOF {
			if state >= 2 {
				closeBlock()
			}
			return blocks, true
		}
		switch state {
		case 0:
			if tok.kind != tokName && tok.kind != tokPath {
				l.diag("Expected NAME or PATH")
				return nil, false
			}
			cur = &subtree{name: tok.text, seq: len(blocks)}
			blocks = append(blocks, cur)
			state = 1
		case 1:
			if tok.kind != tokLBrace {
				l.diag("{ expected")
				return nil, false
			}
			state = 2
		case 2, 3:
			switch {
			case tok.kind == tokName:
				kids = append(kids, &node{name: tok.text, pmid: pcp.PMIDNull})
				state = 3
			case tok.kind == tokPMID && state == 3:
				kids[len(kids)-1].pmid = tok.pmid
				state = 2
			case tok.kind == tokRBrace:
				if name := firstRepeated(kids); name != "" {
					l.diagBuf(fmt.Sprintf("Duplicate name \"%s\" in subtree for \"%s\"\n", name, cur.name))
					return nil, false
				}
				closeBlock()
				state = 0
			case state == 2:
				l.diag("Expected NAME or }")
				return nil, false
			default:
				l.diag("Expected NAME, PMID or }")
				return nil, false
			}
		}
	}
}

// firstRepeated returns the first name in kids that appears again later, or
// "" when the names are distinct.
func firstRepeated(kids []*node) string {
	if len(kids) <= smallBlock {
		// Most blocks are this small; a map for each was a
		// tenth of the pages a system namespace's load touched.
		for i, k := range kids {
			for _, later := range kids[i+1:] {
				if later.name == k.name {
					return k.name
				}
			}
		}
		return ""
	}
	count := make(map[string]int, len(kids))
	for _, k := range kids {
		count[k.name]++
	}
	for _, k := range kids {
		if count[k.name] > 1 {
			return k.name
		}
	}
	return ""
}

// kidChunk is how many children's pointers parseBlocks allocates at a
// time for the blocks' lists.
const kidChunk = 512

// smallBlock is the most children firstRepeated compares pairwise.
const smallBlock = 256
