package main

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmns"
)

// node is one node of a namespace being edited; kids keep their order.
type node struct {
	name string
	leaf bool
	pmid pcp.PMID // for a leaf; a dynamic subtree has pmns.DynamicRoot
	kids []*node
}

// namespace is a PMNS being edited, read with pmns (so cpp directives and
// errors are PCP's) and kept in its own order.
type namespace struct {
	root *node
}

func loadNamespace(path string) (*namespace, error) {
	t, err := pmns.LoadWith(path, pmns.Options{})
	if err != nil {
		return nil, err
	}
	return &namespace{root: fromTree(t, "", "")}, nil
}

// fromTree copies the part of t at path into nodes.
func fromTree(t *pmns.Tree, path, name string) *node {
	n := &node{name: name}
	if path != "" {
		if id, err := t.Lookup(path); err == nil {
			n.leaf, n.pmid = true, id
			return n
		}
	}
	kids, err := t.Children(path)
	if err != nil {
		return n
	}
	for _, k := range kids {
		full := k.Name
		if path != "" {
			full = path + "." + k.Name
		}
		n.kids = append(n.kids, fromTree(t, full, k.Name))
	}
	return n
}

// subtree reads an agent's part of the namespace, a pmns(5) fragment
// without a root node, as PCP's agents ship it ("simple { ... }"), with
// the symbolic domain (SIMPLE) replaced by the number as pmdaproc.sh does.
func subtree(src []byte, symbol string, domain int) (*namespace, error) {
	text := string(src)
	if symbol != "" {
		text = regexp.MustCompile(`\b`+regexp.QuoteMeta(symbol)+`:`).ReplaceAllString(text, fmt.Sprint(domain)+":")
	}
	// The top-level nodes are the ones no other node lists.
	blocks := regexp.MustCompile(`(?m)^\s*([A-Za-z][A-Za-z0-9_.]*)\s*\{`).FindAllStringSubmatch(text, -1)
	var tops []string
	for _, b := range blocks {
		if !strings.Contains(b[1], ".") {
			tops = append(tops, b[1])
		}
	}
	if len(tops) == 0 {
		return nil, errors.New("no top-level node in the namespace fragment")
	}
	root := "root {\n\t" + strings.Join(tops, "\n\t") + "\n}\n\n" + text
	t, err := pmns.Parse(strings.NewReader(root), pmns.Options{})
	if err != nil {
		return nil, err
	}
	return &namespace{root: fromTree(t, "", "")}, nil
}

// find returns the node at a dotted path and its parent.
func (ns *namespace) find(path string) (n, parent *node) {
	n = ns.root
	for _, part := range strings.Split(path, ".") {
		parent = n
		n = nil
		for _, k := range parent.kids {
			if k.name == part {
				n = k
				break
			}
		}
		if n == nil {
			return nil, parent
		}
	}
	return n, parent
}

// add puts name into the namespace, replacing whatever was there: the
// subtree of that name from the fragment, or without one a dynamic
// subtree the agent of domain serves.
func (ns *namespace) add(name string, from *namespace, domain int) error {
	ns.remove(name)
	var sub *node
	if from == nil {
		sub = &node{name: name[strings.LastIndexByte(name, '.')+1:], leaf: true, pmid: pmns.DynamicRoot(uint32(domain))}
	} else if sub, _ = from.find(name); sub == nil {
		return fmt.Errorf("the namespace fragment has no %q", name)
	}
	parent := ns.root
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		p, _ := ns.find(name[:i])
		if p == nil || p.leaf {
			return fmt.Errorf("no non-leaf %q in the namespace", name[:i])
		}
		parent = p
	}
	leavesFirst(sub)
	parent.kids = append(parent.kids, sub)
	return nil
}

// leavesFirst orders a new subtree as pmnsmerge builds it from an input
// after the first: it adds a node's leaves before descending into its
// subtrees, so each node lists its leaves (agents' subtrees included)
// before its other children.
func leavesFirst(n *node) {
	var leaves, others []*node
	for _, k := range n.kids {
		if k.leaf {
			leaves = append(leaves, k)
		} else {
			others = append(others, k)
			leavesFirst(k)
		}
	}
	n.kids = append(leaves, others...)
}

// remove drops name and everything below it, reporting whether it was
// there.
func (ns *namespace) remove(name string) bool {
	n, parent := ns.find(name)
	if n == nil {
		return false
	}
	for i, k := range parent.kids {
		if k == n {
			parent.kids = append(parent.kids[:i], parent.kids[i+1:]...)
			break
		}
	}
	return true
}

// text renders the namespace as pmnsmerge writes it: the root, then each
// non-leaf node, level by level, every node listing its children in order
// (leaf PMIDs as domain:cluster:item, or domain:*:* for subtrees agents
// serve), tab-separated.
func (ns *namespace) text() []byte {
	var b bytes.Buffer
	var walk func(n *node, path string)
	walk = func(n *node, path string) {
		if path != "root" {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%s {\n", path)
		var nonLeaf []*node
		for _, k := range n.kids {
			if k.leaf {
				fmt.Fprintf(&b, "\t%s\t%s\n", k.name, pmidText(k.pmid))
			} else {
				nonLeaf = append(nonLeaf, k)
				fmt.Fprintf(&b, "\t%s\n", k.name)
			}
		}
		b.WriteString("}\n")
		for _, k := range nonLeaf {
			p := k.name
			if path != "root" {
				p = path + "." + k.name
			}
			walk(k, p)
		}
	}
	walk(ns.root, "root")
	return b.Bytes()
}

// pmidText is a PMID as a namespace file writes it.
func pmidText(id pcp.PMID) string {
	if d, ok := pmns.DynamicDomain(id); ok {
		return fmt.Sprintf("%d:*:*", d)
	}
	return fmt.Sprintf("%d:%d:%d", id.Domain(), id.Cluster(), id.Item())
}
